/**
 * A supplier's waves as the supplier API and the operator dashboard list them: each wave with its
 * processes per state and what its `waves` row records, whether a wave exists at all, and the
 * welcome e-mails still held for one.
 */
import { type Queryable, sql } from '../../infra/db/db.ts';
import type { Reconciliation, WaveRecord } from './reconciliation.queries.ts';

/** The supplier's waves: those its processes name, and those with expectations but no process yet. */
const selectWaves = sql(
  'selectSupplierWaves',
  `WITH counted AS (
     SELECT wave, jsonb_object_agg(status, n) AS processes
       FROM (SELECT wave, status, count(*) AS n FROM import_processes
              WHERE import_supplier = $1 AND wave IS NOT NULL GROUP BY wave, status) s
      GROUP BY wave
   )
   SELECT coalesce(c.wave, w.wave) AS wave, coalesce(c.processes, '{}') AS processes, w.expected_accounts,
          w.expectations_uploaded_at, w.approved_at, w.rolled_back_at
     FROM counted c FULL JOIN (SELECT * FROM waves WHERE import_supplier = $1) w ON w.wave = c.wave
    ORDER BY 1`,
);

const selectWaveExists = sql(
  'selectWaveExists',
  `SELECT EXISTS (SELECT 1 FROM import_processes WHERE import_supplier = $1 AND wave = $2)
       OR EXISTS (SELECT 1 FROM waves WHERE import_supplier = $1 AND wave = $2) AS found`,
);

const selectWaveProcessCounts = sql(
  'selectWaveProcessCounts',
  `SELECT status, count(*)::int AS n FROM import_processes
    WHERE import_supplier = $1 AND wave = $2 GROUP BY status`,
);

/** Held rows are those of the wave's accounts still waiting for its approval (decision 0070). */
const selectHeldWelcomeEmails = sql(
  'selectWaveHeldWelcomeEmails',
  `SELECT count(*)::int AS n
     FROM email_outbox o JOIN import_processes p ON p.account_id = o.account_id
    WHERE p.import_supplier = $1 AND p.wave = $2 AND o.held_for_wave IS NOT NULL`,
);

const selectWaveMappingProfiles = sql(
  'selectWaveMappingProfiles',
  `SELECT mapping_profile AS name, mapping_profile_version AS version, count(*)::int AS processes
     FROM import_processes
    WHERE import_supplier = $1 AND wave = $2
    GROUP BY mapping_profile, mapping_profile_version
    ORDER BY mapping_profile NULLS LAST, mapping_profile_version`,
);

/** How many of a wave's processes one mapping profile version built (name and version null: none). */
export interface WaveMappingProfile {
  name: string | null;
  version: number | null;
  processes: number;
}

/** The mapping profiles (name and version) that built the wave's processes, with their counts. */
export async function waveMappingProfiles(
  q: Queryable,
  supplier: string,
  wave: string,
): Promise<WaveMappingProfile[]> {
  const { rows } = await q.query<WaveMappingProfile>(selectWaveMappingProfiles, [supplier, wave]);
  return rows.map((r) => ({ ...r, processes: Number(r.processes) }));
}

export interface WaveSummary {
  wave: string;
  /** The last act on the wave, else `open` (see lastAct). */
  status: WaveAct | 'open';
  /** How many of its import processes are in each state (states with none are left out). */
  processes: Record<string, number>;
  expected_accounts: number | null;
  expectations_uploaded_at: Date | null;
  approved_at: Date | null;
  rolled_back_at: Date | null;
}

interface WaveRow {
  wave: string;
  processes: Record<string, string | number>;
  expected_accounts: string | number | null;
  expectations_uploaded_at: Date | null;
  approved_at: Date | null;
  rolled_back_at: Date | null;
}

export async function listSupplierWaves(q: Queryable, supplier: string): Promise<WaveSummary[]> {
  const { rows } = await q.query<WaveRow>(selectWaves, [supplier]);
  return rows.map((r) => {
    const processes = Object.fromEntries(Object.entries(r.processes).map(([k, v]) => [k, Number(v)]));
    return {
      wave: r.wave,
      status: lastAct(r, processes) ?? 'open',
      processes,
      expected_accounts: r.expected_accounts === null ? null : Number(r.expected_accounts),
      expectations_uploaded_at: r.expectations_uploaded_at,
      approved_at: r.approved_at,
      rolled_back_at: r.rolled_back_at,
    };
  });
}

/** Whether a process names the wave or its `waves` row exists (expectations, approval, rollback). */
export async function waveExists(q: Queryable, supplier: string, wave: string): Promise<boolean> {
  const { rows } = await q.query<{ found: boolean }>(selectWaveExists, [supplier, wave]);
  return rows[0].found;
}

/** The wave's processes per state (states with none are left out). */
export async function waveProcessCounts(
  q: Queryable,
  supplier: string,
  wave: string,
): Promise<Record<string, number>> {
  const { rows } = await q.query<{ status: string; n: number }>(selectWaveProcessCounts, [supplier, wave]);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Welcome e-mails of the wave's accounts held until its approval. */
export async function heldWelcomeEmails(q: Queryable, supplier: string, wave: string): Promise<number> {
  const { rows } = await q.query<{ n: number }>(selectHeldWelcomeEmails, [supplier, wave]);
  return Number(rows[0].n);
}

export type WaveAct = 'approved' | 'rolled_back';
export type WaveStatus = 'no_expectations' | 'differences' | 'matched' | WaveAct;

/**
 * The last act on the wave as a whole, or null when none stands. Approval is final, so it is the
 * last act whenever there is one. A rollback moves every process of the wave to CANCELLED; once
 * any of them is in another state, the wave was scheduled again after it (a re-push), and the
 * rollback is history, not where the wave stands.
 */
export function lastAct(
  record: Pick<WaveRecord, 'approved_at' | 'rolled_back_at'> | null,
  processes: Record<string, number>,
): WaveAct | null {
  if (record?.approved_at) return 'approved';
  const pushedAgain = Object.entries(processes).some(([state, n]) => state !== 'CANCELLED' && n > 0);
  if (record?.rolled_back_at && !pushedAgain) return 'rolled_back';
  return null;
}

/** Where the wave stands, as its reconciliation answers it: the last act on it, else its comparison. */
export function waveStatus(
  record: Pick<WaveRecord, 'expectations_uploaded_at' | 'approved_at' | 'rolled_back_at'> | null,
  processes: Record<string, number>,
  reconciliation: Pick<Reconciliation, 'clean'>,
): WaveStatus {
  const act = lastAct(record, processes);
  if (act) return act;
  if (!record?.expectations_uploaded_at) return 'no_expectations';
  return reconciliation.clean ? 'matched' : 'differences';
}
