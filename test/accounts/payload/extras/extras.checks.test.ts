import { describe } from 'node:test';
import { ruleCases } from '../support/rule-cases.ts';

const commission = (changes: Record<string, unknown> = {}) => ({
  commission_contracts: [
    {
      affiliate_organisation_name: 'Partner',
      effective_from: '2019-01-01',
      effective_to: '2020-01-01',
      mpxn: '1200060176720',
      status: 'PAID',
      ...changes,
    },
  ],
});
const contribution = (changes: Record<string, unknown> = {}) => ({
  active_period_start_date: '2019-01-01',
  active_period_end_date: '2019-12-31',
  amount: '5.00',
  interval: 'MONTHLY',
  scheme: 'WARM',
  ...changes,
});
const complaint = (changes: Record<string, unknown> = {}) => ({
  complaints: [
    {
      complainant_email: 'a@example.co.uk',
      complainant_name: 'A',
      complaint_contacts: [],
      created_at: '2020-01-01T00:00:00Z',
      has_chsr_letter_been_sent: false,
      has_eight_week_letter_been_sent: false,
      subtype_of_complaint: 's',
      type_of_complaint: 't',
      ...changes,
    },
  ],
});

describe('campaigns', () => {
  ruleCases([
    {
      rejects: 'a campaign named by both name and slug',
      changes: { 'account_campaigns.0.campaign_name': 'Super' },
      attr: 'account_campaigns.0.slug',
      code: 'campaign_name_and_slug_provided',
    },
    {
      rejects: 'a campaign named by neither',
      changes: { 'account_campaigns.0.slug': '' },
      attr: 'account_campaigns.0.slug',
      code: 'campaign_name_or_slug_not_provided',
    },
    {
      rejects: 'a campaign expiring on its start date',
      changes: {
        'account_campaigns.0.start_date': '2020-01-01',
        'account_campaigns.0.expiry_date': '2020-01-01',
      },
      attr: 'account_campaigns.0.expiry_date',
      code: 'start_date_same_as_end_date',
    },
    {
      rejects: 'campaigns identified partly by slug, partly by name',
      changes: { 'account_campaigns.1': { campaign_name: 'Other' } },
      attr: 'account_campaigns.1.campaign_name',
      code: 'inconsistent_campaign_identifiers',
    },
    {
      rejects: 'the same campaign twice',
      changes: { 'account_campaigns.1': { slug: 'super_account' } },
      attr: 'account_campaigns.1',
      code: 'duplicate_account_campaigns',
    },
  ]);
});

describe('contracts and agreements', () => {
  ruleCases([
    {
      accepts: 'a commission contract with a unit rate uplift',
      changes: commission({ unit_rate_uplift: '0.5' }),
    },
    {
      rejects: 'a commission contract ending before it starts',
      changes: commission({ effective_to: '2018-12-31' }),
      attr: 'commission_contracts.0.effective_to',
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'both an uplift and the deprecated value',
      changes: commission({ unit_rate_uplift: '0.5', value: '1.00' }),
      attr: 'commission_contracts.0.value',
      code: 'uplift_and_value_conflict',
    },
    {
      rejects: 'a commission type without a value or uplift',
      changes: commission({ commission_type: 'UNIT_RATE_UPLIFT' }),
      attr: 'commission_contracts.0.value',
      code: 'commission_type_requires_value',
    },
    {
      rejects: 'a contribution agreement ending before it starts',
      changes: { contribution_agreements: [contribution({ active_period_end_date: '2018-12-31' })] },
      attr: 'contribution_agreements.0.active_period_end_date',
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'a contribution period starting before the active period',
      changes: {
        contribution_agreements: [
          contribution({ periods: [{ start_date: '2018-12-01', end_date: '2019-01-01' }] }),
        ],
      },
      attr: 'contribution_agreements.0.periods.0.start_date',
      code: 'invalid_contribution_period_start_date',
    },
    {
      rejects: 'a contribution period ending after the active period',
      changes: {
        contribution_agreements: [
          contribution({ periods: [{ start_date: '2019-12-01', end_date: '2020-01-01' }] }),
        ],
      },
      attr: 'contribution_agreements.0.periods.0.end_date',
      code: 'invalid_contribution_period_end_date',
    },
    {
      rejects: 'overlapping contribution periods',
      changes: {
        contribution_agreements: [
          contribution({
            periods: [
              { start_date: '2019-01-01', end_date: '2019-03-01' },
              { start_date: '2019-02-01', end_date: '2019-04-01' },
            ],
          }),
        ],
      },
      attr: 'contribution_agreements.0.periods.1.start_date',
      code: 'overlapping_contribution_periods',
    },
    {
      rejects: 'a contribution period ending before it starts',
      changes: {
        contribution_agreements: [
          contribution({ periods: [{ start_date: '2019-03-01', end_date: '2019-02-01' }] }),
        ],
      },
      attr: 'contribution_agreements.0.periods.0.end_date',
      code: 'start_date_later_than_end_date',
    },
    {
      rejects: 'two overlapping agreements of one scheme',
      changes: {
        contribution_agreements: [
          contribution(),
          contribution({ active_period_start_date: '2019-06-01', active_period_end_date: null }),
        ],
      },
      attr: 'contribution_agreements.1.active_period_start_date',
      code: 'overlapping_contribution_agreements',
    },
    {
      accepts: 'overlapping agreements of different schemes',
      changes: { contribution_agreements: [contribution(), contribution({ scheme: 'OTHER' })] },
    },
    {
      rejects: 'a partner organisation valid to before valid from',
      changes: {
        partner_organisations: [
          {
            organisation_number: 'O1',
            role: 'broker',
            valid_from: '2020-01-02T00:00:00Z',
            valid_to: '2020-01-01T00:00:00Z',
          },
        ],
      },
      attr: 'partner_organisations.0.valid_to',
      code: 'start_date_later_than_end_date',
    },
  ]);
});

describe('complaints, references, FiT', () => {
  ruleCases([
    {
      rejects: 'an official complaint without a status',
      changes: complaint({ official_entity: 'Ombudsman', official_reference_number: 'R1' }),
      attr: 'complaints.0.official_status',
      code: 'official_complaint_field_missing',
    },
    {
      rejects: 'an eight-week letter without the CHSR letter',
      changes: complaint({ has_eight_week_letter_been_sent: true }),
      attr: 'complaints.0.has_chsr_letter_been_sent',
      code: 'chsr_letter_not_sent',
    },
    {
      rejects: 'the same reference twice',
      changes: {
        'references.1': { namespace: 'tentacle-energy.allpay-client-reference-number', value: '1234567890' },
      },
      attr: 'references.1.value',
      code: 'reference_already_exists',
    },
    {
      rejects: 'FiT BACS payments without a vendor',
      changes: {
        fit: {
          installations: [{ fit_id: 'F1' }],
          meters: [
            {
              extensions: ['E1'],
              last_billed_to_date: '2019-08-01',
              serial_number: 'S1',
              transfer_reading: { reading_date: '2019-08-01', reading_value: '1' },
              type: 'GENERATION',
            },
          ],
          payment_method: 'BACS',
          instruction_reference: 'MD1',
        },
      },
      attr: 'fit.vendor_name',
      code: 'payment_instruction_details_incomplete',
    },
  ]);
});

describe('notes', () => {
  ruleCases([
    {
      rejects: 'a note with neither body nor documents',
      changes: { 'notes.0.body': '', 'notes.0.document_paths': [] },
      attr: 'notes.0.body',
      code: 'note_body_or_document_path_not_found',
    },
    { accepts: 'a note with documents only', changes: { 'notes.0.body': undefined } },
    {
      rejects: 'a note unpinned before it was created',
      changes: { 'notes.0.unpin_at': '2018-10-10T10:19:59Z' },
      attr: 'notes.0.unpin_at',
      code: 'note_unpin_at_earlier_than_creation_date',
    },
    {
      accepts: 'an unpin time in another offset that is the same instant',
      changes: { 'notes.0.unpin_at': '2018-10-10T11:20:00+01:00' },
    },
  ]);
});
