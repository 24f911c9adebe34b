/**
 * What a push's report (and its journal) was written against: the service, by the identifier it
 * generated once and keeps in its database (GET /v2/data-import/suppliers/<code>/ answers it),
 * and the suppliers whose accounts it reports (docs/decisions/0080). Kept beside the report in
 * `<report>.service.json`, so the report stays one line per account. A re-run against another
 * service, or with a key that may not act for a supplier the report holds, is refused with one
 * line before anything is sent: another `--report` starts afresh.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { asObject } from './push-account-lines.ts';
import { PushAbort, type PushSession } from './push-session.ts';

export const bindingPath = (reportPath: string) => `${reportPath}.service.json`;

/** The push cannot go on with this report (exit 2), and a re-run of the same command cannot help. */
export class PushRefusal extends PushAbort {}

interface Binding {
  service_id: string;
  /** The base URL it was written against: told in the refusal, never compared. */
  url: string;
  suppliers: string[];
}

function readBinding(path: string): Binding | null {
  if (!existsSync(path)) return null;
  try {
    const value = asObject(JSON.parse(readFileSync(path, 'utf8')));
    if (typeof value?.service_id !== 'string' || !Array.isArray(value.suppliers)) return null;
    return {
      service_id: value.service_id,
      url: typeof value.url === 'string' ? value.url : '?',
      suppliers: value.suppliers.filter((s): s is string => typeof s === 'string'),
    };
  } catch {
    return null;
  }
}

/** What the service answers of a supplier: its identifier, or why there is none. */
async function serviceIdVia(
  session: PushSession,
  supplier: string,
): Promise<{ serviceId: string | null; status: number }> {
  const path = `/v2/data-import/suppliers/${encodeURIComponent(supplier)}/`;
  const answer = await session.request(session.raw(path, { method: 'GET' }));
  const id = asObject(answer.body)?.service_id;
  return { serviceId: answer.status === 200 && typeof id === 'string' ? id : null, status: answer.status };
}

export class ReportBinding {
  #binding: Binding | null;
  readonly #path: string;
  /** Suppliers whose identifier was asked for this run (bound or not). */
  readonly #asked = new Set<string>();

  private constructor(
    readonly session: PushSession,
    readonly reportPath: string,
    binding: Binding | null,
  ) {
    this.#path = bindingPath(reportPath);
    this.#binding = binding;
  }

  /**
   * The report's binding, checked against the service before anything is sent. `written`: whether
   * an earlier run left anything (report lines or a journal); a binding beside nothing is stale.
   */
  static async open(session: PushSession, reportPath: string, written: boolean): Promise<ReportBinding> {
    const binding = written ? readBinding(bindingPath(reportPath)) : null;
    const bound = new ReportBinding(session, reportPath, binding);
    if (binding) for (const supplier of binding.suppliers) await bound.#check(binding, supplier);
    return bound;
  }

  async #check(binding: Binding, supplier: string): Promise<void> {
    const { serviceId, status } = await serviceIdVia(this.session, supplier);
    const elsewhere = `${this.reportPath} was written against another service (${binding.url})`;
    const advice = 'use another --report to push this book to it';
    if (status === 404 || status === 403)
      throw new PushRefusal(
        `${this.reportPath} reports accounts of supplier ${supplier}, which ${this.session.baseUrl} ` +
          `${status === 404 ? 'does not have' : 'does not let this API key act for'}: ${advice}`,
      );
    // An older service that tells no identifier: what is final is still confirmed account by account.
    if (serviceId !== null && serviceId !== binding.service_id)
      throw new PushRefusal(`${elsewhere}, not ${this.session.baseUrl}: ${advice}`);
  }

  /** A supplier the input names: bound to the report, the service's identifier read once. */
  async bind(supplier: string): Promise<void> {
    if (this.#asked.has(supplier)) return;
    this.#asked.add(supplier);
    const binding = this.#binding;
    if (binding?.suppliers.includes(supplier)) return;
    const { serviceId } = await serviceIdVia(this.session, supplier);
    // Unknown supplier, or an older service: nothing to bind (its accounts are refused or confirmed).
    if (serviceId === null) return;
    if (binding && binding.service_id !== serviceId)
      throw new PushRefusal(
        `${this.session.baseUrl} answers as two services (supplier ${supplier}); nothing more is sent`,
      );
    this.#binding = {
      service_id: serviceId,
      url: this.session.baseUrl,
      suppliers: [...(binding?.suppliers ?? []), supplier],
    };
    const temporary = `${this.#path}.writing`;
    writeFileSync(temporary, `${JSON.stringify(this.#binding)}\n`);
    renameSync(temporary, this.#path);
  }
}
