/** The V2 import process states and their V1 (account-transfer-status) projection. */
export const IMPORT_PROCESS_STATUSES = [
  'STAGED',
  'PENDING',
  'IN_PROGRESS',
  'PROCESSED',
  'CANCELLED',
  'DRY_RUN_SUCCEEDED',
  'ERRORED',
  'DRY_RUN_ERRORED',
] as const;
export type ImportProcessStatus = (typeof IMPORT_PROCESS_STATUSES)[number];

export type TransferStatusV1 = 'UNKNOWN' | 'COMPLETED' | 'IN_PROGRESS';

export function toTransferStatusV1(status: ImportProcessStatus): TransferStatusV1 {
  if (status === 'PROCESSED') return 'COMPLETED';
  if (status === 'IN_PROGRESS') return 'IN_PROGRESS';
  return 'UNKNOWN';
}

export const IMPORT_PROCESS_EVENTS = {
  CREATED: 'EVENT_ACCOUNT_IMPORT_PROCESS_CREATED',
  /** Account data staged by the V1 create-or-update endpoint; no worker takes it. */
  STAGED: 'EVENT_ACCOUNT_IMPORT_PROCESS_STAGED',
  STARTED: 'EVENT_ACCOUNT_IMPORT_PROCESS_STARTED',
  PROCESSED: 'EVENT_ACCOUNT_IMPORT_PROCESS_PROCESSED',
  ERRORED: 'EVENT_ACCOUNT_IMPORT_PROCESS_ERRORED',
  CANCELLED: 'EVENT_ACCOUNT_IMPORT_PROCESS_CANCELLED',
  DRY_RUN_SUCCEEDED: 'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_SUCCEEDED',
  DRY_RUN_ERRORED: 'EVENT_ACCOUNT_IMPORT_PROCESS_DRY_RUN_ERRORED',
} as const;

/** States from which the operator may cancel a process. */
export const CANCELLABLE: readonly ImportProcessStatus[] = [
  'STAGED',
  'PENDING',
  'ERRORED',
  'DRY_RUN_SUCCEEDED',
  'DRY_RUN_ERRORED',
];
/** States a new create request may re-schedule (payload replaced, PENDING again). */
export const RESCHEDULABLE: readonly ImportProcessStatus[] = [
  'STAGED',
  'PENDING',
  'ERRORED',
  'CANCELLED',
  'DRY_RUN_SUCCEEDED',
  'DRY_RUN_ERRORED',
];

/** States whose data the V1 process endpoint may turn into an account (synchronously). */
export const PROCESSABLE: readonly ImportProcessStatus[] = [
  'STAGED',
  'PENDING',
  'ERRORED',
  'DRY_RUN_SUCCEEDED',
  'DRY_RUN_ERRORED',
];
