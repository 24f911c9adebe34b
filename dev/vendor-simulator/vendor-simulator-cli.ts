import { parseArgs } from 'node:util';
import { startVendorSimulator, type VendorSimulator } from './vendor-simulator.ts';
import { SEEDED_MANDATES, SEEDED_PAYMENT_METHODS, type SeededRecord } from './vendor-simulator-records.ts';

export const VENDOR_SIMULATOR_USAGE = `Usage: ferry dev vendor-sim [--port N] [--host 127.0.0.1]

Serves GoCardless- and Stripe-shaped APIs on loopback for local trials of payment instructions.
`;

export interface VendorSimulatorCliIo {
  stdout?: { write(text: string): unknown };
  stderr?: { write(text: string): unknown };
  /** Stops the simulator; by default SIGINT or SIGTERM does. */
  signal?: AbortSignal;
  /** Called once the simulator is listening (tests use it to reach it). */
  onListening?: (simulator: VendorSimulator) => void;
}

/** What the operator needs to point Ferry at the simulator and try it. */
export function describeVendorSimulator(simulator: VendorSimulator): string {
  const lines = [`Vendor simulator listening on ${simulator.url}`, '', 'Point Ferry at it with:'];
  for (const [name, value] of Object.entries(simulator.env)) lines.push(`  export ${name}=${value}`);
  const seeded = (records: SeededRecord<{ id: string }>[]) =>
    records.map(({ record, purpose }) => `  ${record.id.padEnd(22)} ${purpose}`);
  lines.push('', 'GoCardless mandates (vendor GOCARDLESS, type DIRECT_DEBIT):', ...seeded(SEEDED_MANDATES));
  lines.push('', 'Stripe payment methods (vendor STRIPE):', ...seeded(SEEDED_PAYMENT_METHODS));
  lines.push(
    '',
    'Faults by reference (any other id after the prefix is unknown → 404):',
    '  MD_FAIL_<status> / pm_fail_<status>   answer that HTTP status (404, 401, 422, 429, 500, 503, …)',
    '  MD_SLOW_<ms> / pm_slow_<ms>           wait, then answer with an active instruction',
    '  MD_RESET / pm_reset                   drop the connection without answering',
    '  MD_STATUS_<status>                    a mandate in that status (MD_STATUS_CANCELLED)',
    '  pm_detached, pm_expired, pm_type_<t>  a detached card, an expired card, a payment method of type t',
    '',
    'Ctrl-C stops it.',
    '',
  );
  return lines.join('\n');
}

/** `ferry dev vendor-sim`: runs until interrupted; resolves with the exit code. */
export async function runVendorSimulatorCli(argv: string[], io: VendorSimulatorCliIo = {}): Promise<number> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  let port: number;
  let host: string;
  try {
    const { values } = parseArgs({
      args: argv,
      options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
    });
    if (values.help) {
      stdout.write(VENDOR_SIMULATOR_USAGE);
      return 0;
    }
    port = values.port === undefined ? 0 : Number(values.port);
    host = values.host ?? '127.0.0.1';
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new Error(`--port must be 0–65535, got ${values.port}`);
  } catch (err) {
    stderr.write(`${err instanceof Error ? err.message : String(err)}\n${VENDOR_SIMULATOR_USAGE}`);
    return 2;
  }

  const simulator = await startVendorSimulator({ port, host });
  stdout.write(describeVendorSimulator(simulator));
  io.onListening?.(simulator);

  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      io.signal?.removeEventListener('abort', stop);
      resolve();
    };
    if (io.signal) {
      if (io.signal.aborted) return stop();
      io.signal.addEventListener('abort', stop, { once: true });
    } else {
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }
  });
  await simulator.close();
  return 0;
}
