import assert from 'node:assert/strict';
import {
  VendorRejection,
  type VendorRejectionCode,
  VendorUnavailable,
  type VendorUnavailableReason,
} from '../../../src/infra/vendors/payment-vendor.ts';

/** Asserts a permanent rejection with this code. */
export async function assertRejected(
  promise: Promise<unknown>,
  code: VendorRejectionCode,
): Promise<VendorRejection> {
  const err = await promise.then(
    () => assert.fail(`expected a VendorRejection ${code}, got success`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof VendorRejection, `expected VendorRejection ${code}, got ${String(err)}`);
  assert.equal(err.code, code);
  assert.ok(err.message.length > 0);
  return err;
}

/** Asserts a transient failure for this reason. */
export async function assertUnavailable(
  promise: Promise<unknown>,
  reason: VendorUnavailableReason,
): Promise<VendorUnavailable> {
  const err = await promise.then(
    () => assert.fail(`expected VendorUnavailable (${reason}), got success`),
    (e: unknown) => e,
  );
  assert.ok(err instanceof VendorUnavailable, `expected VendorUnavailable ${reason}, got ${String(err)}`);
  assert.equal(err.code, 'vendor_unavailable');
  assert.equal(err.reason, reason);
  return err;
}

/** A port on loopback with nothing listening (connection refused). */
export async function closedPortUrl(): Promise<string> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
