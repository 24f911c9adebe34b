// Enum values of the GB account payload, taken as facts from reference/enums.md.

/** Kinds of account. */
export const ACCOUNT_TYPES = [
  'DOMESTIC',
  'BUSINESS',
  'MANAGED',
  'PORTFOLIO_LEAD',
  'DOMESTIC_VACANT',
  'BUSINESS_VACANT',
  'DOMESTIC_OCCUPIER',
  'BUSINESS_OCCUPIER',
  'SYSTEM',
  'DOMESTIC_THIRD_PARTY_BILLED',
  'BUSINESS_THIRD_PARTY_BILLED',
] as const;

/** Legal forms for the deprecated account-level business_type ("" allowed). */
export const ACCOUNT_BUSINESS_TYPES = [
  'SOLE_TRADER',
  'LTD',
  'PTY_LTD',
  'PARTNERSHIP',
  'CHARITY',
  'PLC',
  'LLP',
  'TRUST',
  'TRADING_AS',
  'GOVERNMENT',
  'NON_PROFIT',
  'CHURCH',
  'HOMEOWNER_ASSOCIATION',
  'TBD',
  '',
] as const;

/** Channels an account was sold through. */
export const SALES_CHANNELS = [
  'DIRECT',
  'PRICE_COMPARISON',
  'TELESALES',
  'DIGI_TELESALES',
  'EVENTS',
  'FIELD_SALES',
  'AGGREGATOR',
  'PARTNERSHIPS',
  'NEW_TENANT',
  'MOVE_IN',
  'WORKPLACE_POP_UP',
  'BROKER',
  'PARENT_POWER',
  'PEOPLE_POWER',
  'GIFT_OF_KIT',
  'HIGH_REFERRER',
  'SUPPLIER_OF_LAST_RESORT',
  'ACQUISITION',
  'WORKS_WITH_OCTOPUS',
  'LANDLORD',
  'DEBT_COLLECTION_AGENCY',
  '',
] as const;

/** Legal forms of a business. */
export const BUSINESS_TYPES = [
  'SOLE_TRADER',
  'LTD',
  'PTY_LTD',
  'PARTNERSHIP',
  'CHARITY',
  'PLC',
  'LLP',
  'TRUST',
  'TRADING_AS',
  'GOVERNMENT',
  'NON_PROFIT',
  'CHURCH',
  'HOMEOWNER_ASSOCIATION',
  'TBD',
] as const;

/** Roles a customer or business user can hold. */
export const USER_ROLES = [
  'POWER_OF_ATTORNEY',
  'NEIGHBOUR',
  'LOA_LEVEL_1',
  'LOA_LEVEL_3',
  'CARER',
  'ADMIN',
  'EXECUTOR',
  'LOA_LEVEL_2',
  'STUDENT_HOUSE',
  'FRIEND_FAMILY_MEMBER',
] as const;

/** Pronoun sets a customer can choose ("" allowed). */
export const PRONOUNS = [
  'OTHER',
  'E_EM_EIR',
  'EY_EM_EIR',
  'FAE_FAER_FAERS',
  'HE_HIM_HIS',
  'PER_PER_PERS',
  'SHE_HER_HERS',
  'THEY_THEM_THEIRS',
  'VE_VER_VIS',
  'XE_XEM_XYR',
  'ZE_HIR_HIRS',
  'ZE_ZIR_ZIRS',
  'ZIE_HIR_HIRS',
  'ZIE_ZIR_ZIRS',
  '',
] as const;

/** Why FiT payments to an installation are held. */
export const FIT_CREDIT_HOLD_REASONS = [
  'HAS_NOMINATED_RECIPIENT',
  'INVOLVED_IN_COO',
  'SWITCH_LOSS',
  'LINKED_TO_WRONG_ACCOUNT',
  'PAID_INCORRECTLY',
  'MIGRATED_IN_DISPUTE',
  'AWAITING_SIGNED_FIT_PLAN',
  'CLOSED_INSTALLATION',
  'NEEDS_MANUAL_PAYMENT',
  'BIENNIAL_DISPUTES',
  'OTHER',
] as const;
