/** What a schedule is asked to stage, and what came of it: shared by new and existing processes. */
import type { MappingProfileRef } from '../../accounts/account-checks.ts';
import type { UniqueIdentifier } from '../../accounts/payload/unique-identifiers.ts';
import type { ErrorItem } from '../../errors/error-items.ts';

export interface ScheduleInput {
  supplier: string;
  externalAccountNumber: string;
  payload: unknown;
  isDryRun: boolean;
  scheduleWindowStart: Date;
  scheduleWindowEnd: Date;
  /** False when the client left the window to the default (due now); then any due window is as good. */
  explicitWindow: boolean;
  /** The wave it is scheduled in; absent or null: none. */
  wave?: string | null;
  /** The mapping profile that built the payload (provenance); absent or null: none. */
  mappingProfile?: MappingProfileRef | null;
}

/** The provenance columns of an input, as the statements below read them from JSON. */
export const profileColumns = (input: ScheduleInput) => ({
  mapping_profile: input.mappingProfile?.name ?? null,
  mapping_profile_version: input.mappingProfile?.version ?? null,
});

/** An input with what may be on no other account: checked for every schedule, reserved unless a dry run. */
export type Candidate = ScheduleInput & { identifiers: UniqueIdentifier[] };

export type ScheduleOutcome =
  | { kind: 'created' }
  | { kind: 'rescheduled' }
  | { kind: 'unchanged' }
  | { kind: 'in_progress' }
  | { kind: 'already_imported'; accountNumber: string }
  /** An identifier is held by another process, or brought by an earlier account of the request. */
  | { kind: 'conflict'; errors: ErrorItem[] };

/** What a scheduled process reserves: a dry run nothing (its identifiers are only checked). */
export const reservedBy = (input: Candidate) => (input.isDryRun ? [] : input.identifiers);
