/**
 * The codes the account payload's rules report (`ctx.report` in the `*.checks.ts` files under src/accounts/payload/),
 * by the part of the account each rule checks: what each means. Every one answers inside the
 * `errors` of a 400 from the account endpoints (validate, create, bulk, and V1 validate-account,
 * create-or-update and process). Part of the item-code catalogue (../item-codes.ts).
 */
import type { ItemCodeEntry } from '../item-codes.ts';

export const ACCOUNT_RULE_CODES = {
  account: {
    business_account_missing_customers: 'A business account needs at least one customer.',
    customer_with_unknown_occupier: 'An unknown occupier account has no customers.',
    dd_reference_for_occupier_account: 'A direct debit reference implies a known customer, not an occupier.',
    debt_and_debts_are_defined: 'Send debts; the deprecated debt cannot be combined with it.',
    last_payment_review_date_is_future_dated: 'The last payment review cannot be in the future.',
    multiple_account_types_selected:
      'More than one account type is selected (business, occupier, portfolio lead, system).',
    occupier_account_with_multiple_supply_addresses: 'An occupier account has at most one supply address.',
    payment_adequacy_changes_and_last_payment_review_date_provided:
      'Send payment_adequacy_changes or last_payment_review_date, not both.',
    portfolio_lead_has_a_supply_address: 'A portfolio lead account has no supply addresses.',
    system_account_has_a_supply_address: 'A system account has no supply addresses.',
    tax_exemptions_provided_for_domestic_account: 'Tax exemptions are for business accounts only.',
  },
  customers: {
    contact_details_for_occupier: 'An occupier has no contact details: with them the customer is known.',
    customer_details_and_user_details_both_provided: 'Send user_details or the deprecated details, not both.',
    customer_family_name_required: 'Customers on a domestic account need a family name.',
    customer_may_not_be_named_the_occupier:
      'Use unknown_occupier on the account instead of a customer named "The Occupier".',
    date_in_future: 'A consent cannot be signed in the future.',
    fields_are_mutually_exclusive: 'Send consents or the deprecated customer_preferences, not both.',
    metadata_has_duplicate_keys: 'Each metadata key at most once.',
    psr_industry_code_not_provided: 'A PSR need has an electricity or a gas industry code.',
    repeated_values_for_unique_customer_detail_namespace:
      'Another customer already has this external_user_id.',
    required_user_role: 'A customer needs at least one role in portfolio_roles or account_roles.',
  },
  addresses: {
    billing_address_new_style_and_legacy:
      'Send billing_address or billing_address1..5 and billing_postcode, not both.',
    billing_address_not_provided:
      'Accounts other than occupier accounts need billing_address1 and billing_postcode.',
    duplicate_meter_points_on_different_supply_addresses_provided:
      'This MPxN is already on another supply address.',
    duplicate_meter_points_provided: 'This MPxN appears twice at this supply address.',
    duplicate_property_external_identifiers: 'Each property_external_identifier at most once.',
    duplicate_supply_addresses_found:
      'This supply address appears twice (same first two lines and postcode).',
    import_meter_not_found_for_export_meter:
      'An IMPORT_EXPORT meter point needs exactly one import meter point sharing its meter serial.',
    invalid_address: 'A billing address starts with billing_address1.',
    multiple_property_administrators: 'A supply address has at most one property administrator.',
    unbilled_former_supply_address:
      'The customer left this address, so it must be billed up to the date they left.',
    unexpected_number_of_meter_points_found_for_meter:
      'Only an import/export (twin element) meter may be on two meter points.',
  },
  'meter-points': {
    characteristic_code_not_found: 'A meter point characteristic names a code that is not known.',
    invalid_characteristic_value: 'A meter point characteristic has a value its code does not allow.',
    agents_and_mpids_to_appoint_provided: 'Send agents or dc_to_appoint / mop_to_appoint, not both.',
    agreement_start_date_before_supply_start_date: 'An agreement cannot start before the supply start date.',
    configuration_period_starts_in_future: 'A configuration period starts in the future.',
    disputed_read_in_progress: {
      means: 'A disputed read is in progress on the meter point.',
      todo: 'Import the account once the dispute is resolved.',
    },
    duplicate_bespoke_rates: 'A bespoke rate for this meter and payment method is already given.',
    erroneous_transfer_not_in_progress: {
      means: 'An erroneous transfer is in progress on the meter point.',
      todo: 'Import the account once the erroneous transfer is resolved.',
    },
    future_supply_end_date: {
      means: 'The supply end date is in the future: a loss is in progress.',
      todo: 'Import the meter point once it has been lost (its supply end date passed).',
    },
    future_supply_start_date: 'A billable meter point cannot start supply in the future.',
    gaps_or_overlaps_in_agreement_dates:
      'An agreement does not start when the previous one ends, or overlaps another.',
    gaps_or_overlaps_in_aq_history: 'Each AQ entry starts the day after the previous one ends.',
    gaps_or_overlaps_in_periods: 'A period leaves a gap after the previous one, or overlaps it.',
    latest_configuration_period_not_open_ended:
      'The latest configuration period has an end date; it must be open-ended.',
    meter_point_with_no_agreement: 'A billable meter point needs an agreement.',
    meter_point_with_no_meters:
      'A billable meter point needs an active meter, or an unmetered measurement class.',
    meterpoint_with_agreement_not_on_supply: 'This agreement starts after the meter point left supply.',
    missing_eacs_for_active_register_tpr: 'eac_history has no EAC for the TPR of an active register.',
    multiple_non_dmex_meters_with_serial_number:
      'Meters may share a serial only as a dummy exchange: installed the day after the other was removed.',
    multiple_open_ended_aqs_in_meterpoint_aq_history: 'Only one AQ entry may be open-ended.',
    multiple_open_ended_tax_exemptions: 'Only one tax exemption may be open-ended.',
    no_agreement_covering_last_billed_to_date: 'No agreement covers the last billed to date.',
    no_current_or_future_aq_entry_found: 'A billable gas meter point needs a current AQ.',
    no_reading_on_supply_end_date: 'A meter point off supply needs a final reading on its supply end date.',
    no_register_id_or_rate_type_provided_for_bespoke_elec_rate:
      'A bespoke register rate needs a register_id or a rate_type.',
    no_supply_point_on_supply: 'At least one meter point must still be on supply.',
    overlapping_effective_dates_for_tax_exemptions: 'This exemption overlaps another one.',
    repeated_eac_for_tpr: 'An EAC for this TPR and date is already given.',
    smart_refusal_reason_given_for_interest: 'No refusal reason when the customer is interested.',
    zero_length_periods: 'A period must not start and end on the same date.',
  },
  meters: {
    reading_without_register_id: 'A transfer reading of an electricity meter does not name its register.',
    reading_register_id_not_recognised: "A transfer reading names a register that is not one of its meter's.",
    no_register_id_for_reading: 'A historical reading of an electricity meter does not name its register.',
    historical_reading_register_id_not_recognised:
      "A historical reading names a register that is not one of its meter's.",
    no_last_billed_to_date_on_exchanged_meter: 'An exchanged meter has no last billed to date of its own.',
    last_billed_to_date_not_found:
      'With billing history, a meter (or the account) does not say how far it is billed.',
    active_gas_meter_with_multiple_transfer_readings: 'An active gas meter has exactly one transfer reading.',
    active_gas_meter_without_transfer_reading: 'An active gas meter needs one transfer reading.',
    billed_reading_after_last_billed_to_date: 'A billed reading is dated after the last billed to date.',
    electricity_prepay_meter_without_customer_reference_number:
      'An active electricity prepay meter needs its customer reference number.',
    future_smart_meter_commission_date: 'A meter cannot be commissioned in the future.',
    last_billed_to_date_on_new_meter:
      'A replacement meter installed after the last billed to date has not been billed.',
    meter_with_duplicate_register_ids: 'Each register id at most once per meter.',
    missing_transfer_reading_for_register: 'A register has no transfer reading.',
    multiple_transfer_readings_for_register: 'A register has more than one transfer reading.',
    no_reading_on_removed_on: 'An exchanged meter needs a reading on the date it was removed.',
    no_transfer_reading_on_exchanged_meter: 'A meter removed after the transfer needs its transfer readings.',
    prepay_details_on_fully_billed_meter: 'This meter is fully billed, so it takes no prepay details.',
    prepay_details_on_non_prepay_meter: 'Prepay details are only for prepay meters (is_prepay).',
    reading_meter_fully_billed: 'This meter is fully billed, so it takes no transfer reading.',
    registers_have_duplicate_tprs: 'Each TPR at most once per meter (odd TPRs 01201 to 01229 excepted).',
    registers_missing_for_active_electricity_meter: 'An active electricity meter needs its registers.',
    smart_details_provided_for_non_smart_meter: 'Smart details are only for smart meters (smart_type).',
    transfer_reading_dates_must_match_last_billed_to_date:
      'A transfer reading is not dated on the last billed to date.',
    transfer_vend_read_date_must_match_last_billed_to_date:
      'The transfer vend read date is neither the last billed to date nor the day before it.',
  },
  billing: {
    account_billing_options_industry_billing_with_period_data:
      'With industry billing, period_start_day and period_length must not be given.',
    account_billing_options_period_data_required:
      'Give period_start_day and period_length, or use industry billing.',
    account_billing_options_provided_for_domestic_accounts: 'Billing options are for business accounts only.',
    business_account_missing_billing_options:
      'Business billing options need both period_start_day and period_length.',
    debt_collection_agency_name_required: 'A debt placed with an agency (start_date) names the agency.',
    fulfilled_at_greater_than_last_interest_date: 'The deposit was fulfilled after its last interest date.',
    invalid_day_of_month: 'Use a day of the month from 1 to 28.',
    last_interest_date_not_allowed: 'Only a fulfilled deposit has a last interest date.',
    missing_statement_path_or_pdf_context: 'A statement needs the path of its PDF.',
    multiple_active_deposits_not_allowed: 'Only one deposit agreement can be migrated.',
    next_bill_to_date_not_provided_for_quarterly_billing:
      'Quarterly billing without industry billing needs next_bill_due_date.',
  },
  business: {
    agreement_business_contract_identifier_not_declared:
      'This contract identifier is not one of business.business_contract_identifiers.',
    business_fields_provided_for_domestic_accounts:
      'A domestic account carries fields that only business accounts have.',
    duplicate_portfolio_references: 'Each portfolio reference namespace at most once.',
    portfolio_references_missing: 'Portfolio settings need a portfolio reference.',
    portfolio_settings_included_when_not_lead:
      'Portfolio settings belong on the portfolio lead account only.',
  },
  ledgers: {
    balance_mismatch_on_ledger_balance:
      'A ledger balance is not its last statement balance plus its current statement transactions.',
    balance_mismatch_on_transfer_balance:
      'The transfer balance is not the last statement balance plus the current statement transactions.',
    billing_document_identifier_not_allowed_for_current_statement_transactions:
      'Only historical statement transactions carry a billing document identifier.',
    cannot_determine_responsible_for_billing_from_date:
      'Give a last billed to date, a last statement closing date or agreements, so billing can start.',
    conflicting_rate_band_specification:
      'Give exactly one of rate_band, rate_specification_code and time_series_specification_code.',
    current_statement_transaction_before_current_statement_opening_date:
      'A current statement transaction is dated before the current statement opened (the day after the last statement closed).',
    current_statement_transaction_before_last_billed_to_date:
      'A current statement transaction is dated before the last billed to date.',
    duplicate_identifiers_entries_found: 'Each ledger_identifier at most once.',
    duplicate_ledger_entries_found: 'Each ledger code at most once.',
    duplicate_transaction_ids: 'Transaction ids are unique across the whole payload.',
    historical_statement_billing_document_identifier_mismatch:
      'All historical statement transactions share one billing document identifier.',
    historical_statement_period_end_in_future: 'The last statement cannot close in the future.',
    historical_statement_transaction_after_current_statement_transaction:
      'Historical statement transactions come before every current statement transaction.',
    historical_statement_transaction_after_last_statement_closing_date:
      'A historical statement transaction is dated after the last statement closing date.',
    historical_statement_transactions_balance_mismatch:
      'The historical statement transactions do not sum to the last statement balance.',
    historical_statement_transactions_without_last_statement_closing_date_or_last_billed_to_date:
      'Historical statement transactions need last_statement_closing_date or a last billed to date.',
    incorrect_line_item_net_amount: 'net_amount must equal price_per_unit × number_of_units (to the penny).',
    last_statement_issued_before_closing_date: 'The last statement is issued before the date it closed.',
    ledger_balances_not_equal_to_transfer_balance: 'The ledger balances do not sum to the transfer balance.',
    ledger_transaction_amount_does_not_match_with_line_item_net_amount_and_tax_amount:
      'The amount must equal the line items’ net amounts plus the tax items’ amounts.',
    line_item_units_must_be_two_values: 'units holds exactly two values.',
    line_items_overlap_already_charged_period:
      'Another line item already charges this supply point, product and rate for part of this period.',
    supply_point_identifier_required_for_rate_specification_code:
      'Line items priced by rate_specification_code need the charge’s supply_point_identifier.',
    transaction_in_future: 'A transaction cannot be dated in the future.',
    transactions_target_non_initialised_prepay_meter: 'No meter with prepay_details has this serial number.',
    unknown_ledger_identifiers: 'This is not the MPxN of one of the payload’s meter points.',
  },
  payments: {
    payment_adequacy_should_not_have_been_applied:
      'A payment adequacy change gives both applied_at and a reason it was not applied.',
    payment_adequacy_missing_reason:
      'A payment adequacy change gives neither applied_at nor a reason it was not applied.',
    payment_instructions_ledger_code_uniformity_failed:
      'Some payment instructions give a ledger_code and others do not.',
    payment_schedules_ledger_code_uniformity_failed:
      'Some payment schedules give a ledger_code and others do not.',
    active_new_payment_preference_invalid_instruction_identifier:
      'No payment instruction has this instruction_identifier.',
    balance_triggered_schedule_missing_threshold: 'A balance-triggered schedule needs a balance threshold.',
    debt_repayment_end_date_after_schedule_end_date: 'Debt repayment ends no later than the schedule.',
    debt_repayment_missing_end_date: 'A debt repayment element needs a debt repayment end date.',
    duplicate_ledger_in_payment_preferences: 'A ledger has at most one payment preference.',
    duplicate_payment_component_combinations: 'Each component type at most once per payment date.',
    fixed_payment_schedule_missing_day_of_month: 'A regular schedule needs a payment day.',
    fixed_payment_schedule_missing_frequency: 'A regular schedule needs a frequency.',
    invalid_payment_day_for_payment_schedule: 'Use a payment day from 1 to 28.',
    invalid_payment_preference_ledger_identifier: 'No ledger has this ledger_identifier.',
    invalid_payment_schedule_to_exempt_from_payment_adequacy:
      'Only a regular schedule can be exempt from payment adequacy.',
    multiple_open_ended_payment_schedules: 'Only one open-ended payment schedule per ledger.',
    payment_adequacy_invalid_dates: 'created_at cannot be in the future.',
    payment_adequacy_monthly_charges_unequal:
      'The average monthly charge is the electricity plus the gas average.',
    payment_adequacy_new_direct_debit_amount_mismatch:
      'The new direct debit lies between the existing one and the average charge plus the balance adjustment.',
    payment_instalments_date_outside_of_payment_schedule_active_period:
      'Instalments fall between the schedule’s start and end dates.',
    payment_instalments_do_not_sum_to_total: 'The instalments sum to the schedule amount.',
    payment_instalments_not_provided: 'A PLAN schedule lists its instalments.',
    payment_plan_and_payment_schedule_not_allowed_on_same_ledger:
      'A payment plan creates its own schedule: no payment schedule on the same ledger.',
    payment_plan_payment_components_do_not_sum_to_total:
      'The payment components of a payment plan do not sum to its total.',
    payment_schedule_date_gaps: 'A future schedule starts the day after the previous one ends.',
    payment_schedule_date_overlaps: 'This schedule overlaps another one on the same ledger.',
    payment_schedule_delay_must_have_bill_trigger:
      'A payment delay applies to bill-triggered schedules only.',
    payment_schedule_delay_strategy_missing_delay_days: 'A delay strategy needs delay_days.',
    zero_payment_schedule_amount: 'A schedule not triggered by bills needs an amount.',
  },
  extras: {
    campaign_name_and_slug_provided: 'Name the campaign by slug or by campaign_name, not both.',
    campaign_name_or_slug_not_provided: 'Name the campaign by slug (or the deprecated campaign_name).',
    chsr_letter_not_sent: 'The CHSR letter is sent before the eight-week letter.',
    commission_type_requires_value: 'A commission type needs a value or an uplift.',
    duplicate_account_campaigns: 'This campaign is already listed.',
    inconsistent_campaign_identifiers: 'Identify all campaigns by slug, or all by name.',
    invalid_contribution_period_end_date: 'Periods end within the active period.',
    invalid_contribution_period_start_date: 'Periods start within the active period.',
    official_complaint_field_missing: 'An official complaint gives its entity, reference number and status.',
    overlapping_contribution_agreements: 'Agreements of the same scheme must not overlap.',
    overlapping_contribution_periods: 'This period overlaps another one.',
    payment_instruction_details_incomplete: 'BACS payments need vendor_name.',
    reference_already_exists: {
      means:
        'The reference (namespace and value) is given twice in the account, or is held by another account or import process that is not cancelled, or by an earlier account of the same request.',
      todo: 'Give each reference once; find the account that holds it (the detail names it when it is one of yours).',
    },
    uplift_and_value_conflict: 'Send the uplift fields or the deprecated value, not both.',
  },
  shared: {
    children_with_duplicate_values:
      'Two items of a list have the same value where each must be unique (a statement_id, a key, an identifier).',
    start_date_same_as_end_date: 'A period ends on the day it starts.',
    start_date_later_than_end_date: {
      means: 'A period ends before it starts.',
      where: 'Any dated period of the account payload, and the historical statements import.',
    },
  },
  // Checked once the operator has uploaded the catalogue or the list concerned (decision 0091);
  // tariff_code_not_found, product_code_does_not_exist and the lists' other codes are also the
  // form checks' (field formats).
  catalogue: {
    agreement_effective_from_before_product_available_from:
      "An agreement on a variable or tracker product starts before the product's available_from; reported at the agreement.",
    agreement_cannot_start_before_product_available:
      "An agreement on a fixed product starts before the product's available_from; reported at the agreement.",
    open_ended_agreement_for_end_dated_product:
      'An agreement without effective_to is on a product with an available_to; reported at the agreement.',
    tariff_type_does_not_match_meter_type:
      "An active agreement's tariff is for another payment method: a prepayment meter needs a PREPAYMENT tariff, a credit meter another one.",
    tariff_type_does_not_match_meter_point_type:
      "The agreement's tariff is for another fuel, or another number of registers, than the meter point.",
    tariff_region_does_not_match_meter_point:
      "The agreement's tariff is for another region than the meter point's GSP group (Ferry's own code).",
    rate_band_does_not_exist:
      "A rate override names a band the agreement's tariff does not list (at the agreement), or a supply-charge line item one its product does not (at the line item's rate_band).",
    psr_record_description_not_found: 'The PSR description is not in the uploaded psr-description list.',
    partner_organisation_does_not_exist: 'The organisation is not in the uploaded partner-organisation list.',
    affiliate_organisation_does_not_exist:
      'The affiliate organisation is not in the uploaded affiliate-organisation list.',
    payment_plan_strategy_does_not_exist: 'The strategy is not in the uploaded payment-plan-strategy list.',
  },
} as const satisfies Record<string, Record<string, ItemCodeEntry>>;

/** The parts of the account, as the reference names them. */
export const ACCOUNT_RULE_PARTS: Record<keyof typeof ACCOUNT_RULE_CODES, string> = {
  account: 'the account',
  customers: 'customers',
  addresses: 'addresses',
  'meter-points': 'meter points',
  meters: 'meters and readings',
  billing: 'billing',
  business: 'business accounts',
  ledgers: 'ledgers and transactions',
  payments: 'payments',
  extras: 'campaigns, references and other extras',
  shared: 'several parts',
  catalogue: 'the product catalogue and code lists',
};
