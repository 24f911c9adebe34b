/**
 * Rules on the account's stand-alone lists: campaigns, commissions, contributions, partners,
 * complaints, references, FiT details and notes.
 */

import { type CheckContext, cleanItems, isFilled } from '../../../validation/check-context.ts';
import { instantOf } from '../../../vocabulary/calendar-date.ts';
import type { AccountFacts } from '../account-facts.ts';
import { compositeKey, findRepeatedIndexes } from '../rules/duplicates.ts';
import { findOverlaps, periodsOverlap } from '../rules/periods.ts';
import type { Note } from './extras.schema.ts';

/** Campaigns, commission and contribution contracts, partners, complaints and references. */
export function checkAccountExtras(ctx: CheckContext, facts: AccountFacts): void {
  checkCampaigns(ctx, facts);
  checkContracts(ctx, facts);
  checkComplaintsAndReferences(ctx, facts);
}

function checkCampaigns(ctx: CheckContext, { payload }: AccountFacts): void {
  const campaigns = cleanItems(ctx, payload.account_campaigns, 'account_campaigns');
  for (const { value, path } of campaigns) {
    const hasName = isFilled(value.campaign_name);
    const hasSlug = isFilled(value.slug);
    if (hasName && hasSlug)
      ctx.report(
        `${path}.slug`,
        'campaign_name_and_slug_provided',
        'Name the campaign by slug or by campaign_name, not both.',
      );
    if (!hasName && !hasSlug)
      ctx.report(
        `${path}.slug`,
        'campaign_name_or_slug_not_provided',
        'Name the campaign by slug (or the deprecated campaign_name).',
      );
    if (value.start_date != null && value.expiry_date != null && value.expiry_date <= value.start_date) {
      ctx.report(
        `${path}.expiry_date`,
        'start_date_same_as_end_date',
        'expiry_date must be after start_date.',
      );
    }
  }
  const bySlug = campaigns.filter(({ value }) => isFilled(value.slug));
  const byName = campaigns.filter(({ value }) => isFilled(value.campaign_name) && !isFilled(value.slug));
  if (bySlug.length > 0 && byName.length > 0) {
    ctx.report(
      `${byName[0].path}.campaign_name`,
      'inconsistent_campaign_identifiers',
      'Identify all campaigns by slug, or all by name.',
    );
  }
  for (const index of findRepeatedIndexes(campaigns, ({ value }) =>
    isFilled(value.slug) ? value.slug : value.campaign_name || undefined,
  )) {
    ctx.report(campaigns[index].path, 'duplicate_account_campaigns', 'This campaign is already listed.');
  }
}

function checkContracts(ctx: CheckContext, { payload }: AccountFacts): void {
  for (const { value, path } of cleanItems(ctx, payload.commission_contracts, 'commission_contracts')) {
    if (value.effective_to < value.effective_from)
      ctx.report(
        `${path}.effective_to`,
        'start_date_later_than_end_date',
        'effective_to is before effective_from.',
      );
    const hasUplift = isFilled(value.unit_rate_uplift) || isFilled(value.standing_charge_uplift);
    if (isFilled(value.value) && hasUplift) {
      ctx.report(
        `${path}.value`,
        'uplift_and_value_conflict',
        'Send the uplift fields or the deprecated value, not both.',
      );
    } else if (value.commission_type !== undefined && !isFilled(value.value) && !hasUplift) {
      ctx.report(
        `${path}.value`,
        'commission_type_requires_value',
        'A commission type needs a value or an uplift.',
      );
    }
  }
  const agreements = cleanItems(ctx, payload.contribution_agreements, 'contribution_agreements');
  for (const { value, path } of agreements) {
    const end = value.active_period_end_date;
    if (end != null && end < value.active_period_start_date) {
      ctx.report(
        `${path}.active_period_end_date`,
        'start_date_later_than_end_date',
        'The active period ends before it starts.',
      );
    }
    const periods = value.periods ?? [];
    periods.forEach((period, k) => {
      const at = `${path}.periods.${k}`;
      if (period.end_date < period.start_date)
        ctx.report(`${at}.end_date`, 'start_date_later_than_end_date', 'end_date is before start_date.');
      if (period.start_date < value.active_period_start_date) {
        ctx.report(
          `${at}.start_date`,
          'invalid_contribution_period_start_date',
          'Periods start within the active period.',
        );
      }
      if (end != null && period.end_date > end)
        ctx.report(
          `${at}.end_date`,
          'invalid_contribution_period_end_date',
          'Periods end within the active period.',
        );
    });
    for (const k of findOverlaps(
      periods.map((p) => ({ from: p.start_date, to: p.end_date })),
      'exclusive',
    )) {
      ctx.report(
        `${path}.periods.${k}.start_date`,
        'overlapping_contribution_periods',
        'This period overlaps another one.',
      );
    }
  }
  agreements.forEach(({ value, path }, i) => {
    const period = { from: value.active_period_start_date, to: value.active_period_end_date };
    const clash = agreements
      .slice(0, i)
      .some(
        (other) =>
          other.value.scheme === value.scheme &&
          periodsOverlap(
            { from: other.value.active_period_start_date, to: other.value.active_period_end_date },
            period,
            'inclusive',
          ),
      );
    if (clash)
      ctx.report(
        `${path}.active_period_start_date`,
        'overlapping_contribution_agreements',
        'Agreements of the same scheme must not overlap.',
      );
  });
  for (const { value, path } of cleanItems(ctx, payload.partner_organisations, 'partner_organisations')) {
    if (instantOf(value.valid_to) < instantOf(value.valid_from))
      ctx.report(`${path}.valid_to`, 'start_date_later_than_end_date', 'valid_to is before valid_from.');
  }
}

function checkComplaintsAndReferences(ctx: CheckContext, { payload }: AccountFacts): void {
  for (const { value, path } of cleanItems(ctx, payload.complaints, 'complaints')) {
    const official = (['official_entity', 'official_reference_number', 'official_status'] as const).filter(
      (f) => isFilled(value[f]),
    );
    if (official.length > 0 && official.length < 3) {
      const missing = (['official_entity', 'official_reference_number', 'official_status'] as const).find(
        (f) => !isFilled(value[f]),
      );
      ctx.report(
        `${path}.${missing}`,
        'official_complaint_field_missing',
        'An official complaint gives its entity, reference number and status.',
      );
    }
    if (value.has_eight_week_letter_been_sent && !value.has_chsr_letter_been_sent) {
      ctx.report(
        `${path}.has_chsr_letter_been_sent`,
        'chsr_letter_not_sent',
        'The CHSR letter is sent before the eight-week letter.',
      );
    }
  }
  const references = cleanItems(ctx, payload.references, 'references');
  for (const index of findRepeatedIndexes(references, ({ value }) =>
    compositeKey(value.namespace, value.value),
  )) {
    ctx.report(
      `${references[index].path}.value`,
      'reference_already_exists',
      'This reference is already given.',
    );
  }
}

/** FiT payments by BACS name their vendor and instruction reference. */
export function checkFit(ctx: CheckContext, { payload }: AccountFacts): void {
  const fit = payload.fit;
  if (fit !== undefined && ctx.isClean('fit') && fit.payment_method === 'BACS') {
    if (fit.vendor_name === undefined)
      ctx.report(
        'fit.vendor_name',
        'payment_instruction_details_incomplete',
        'BACS payments need vendor_name.',
      );
    if (!isFilled(fit.instruction_reference)) {
      ctx.report(
        'fit.instruction_reference',
        'payment_instruction_details_incomplete',
        'BACS payments need instruction_reference.',
      );
    }
  }
}

export function checkNotes(ctx: CheckContext, { payload }: AccountFacts): void {
  const lists: Array<{ notes: readonly Note[] | undefined; path: string }> = [
    { notes: payload.notes, path: 'notes' },
  ];
  if (payload.portfolio != null && ctx.isClean('portfolio'))
    lists.push({ notes: payload.portfolio.notes, path: 'portfolio.notes' });
  if (ctx.isClean('business')) {
    (payload.business?.portfolios ?? []).forEach((portfolio, i) => {
      lists.push({ notes: portfolio.notes, path: `business.portfolios.${i}.notes` });
    });
  }
  for (const { notes, path: listPath } of lists) {
    for (const { value: note, path } of cleanItems(ctx, notes, listPath)) {
      if (!isFilled(note.body) && (note.document_paths?.length ?? 0) === 0) {
        ctx.report(
          `${path}.body`,
          'note_body_or_document_path_not_found',
          'A note needs a body or document paths.',
        );
      }
      if (
        note.created_at !== undefined &&
        note.unpin_at !== undefined &&
        instantOf(note.unpin_at) < instantOf(note.created_at)
      ) {
        ctx.report(
          `${path}.unpin_at`,
          'note_unpin_at_earlier_than_creation_date',
          'A note cannot be unpinned before it was created.',
        );
      }
    }
  }
}
