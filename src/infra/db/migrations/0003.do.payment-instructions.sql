-- Payment instructions (direct-debit mandates, card payment methods) attached to imported
-- accounts, with the details fetched from their vendor. See docs/decisions/payment-instructions.md.

CREATE TABLE payment_instructions (
  id bigserial PRIMARY KEY,
  account_id bigint NOT NULL REFERENCES accounts (id),
  vendor text NOT NULL CHECK (vendor IN ('GOCARDLESS', 'STRIPE')),
  type text NOT NULL CHECK (type IN ('DIRECT_DEBIT', 'CARD')),
  reference text NOT NULL,
  status text NOT NULL,
  active boolean NOT NULL,
  details jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT payment_instructions_account_vendor_reference UNIQUE (account_id, vendor, reference)
);

-- At most one active instruction of each type per account.
CREATE UNIQUE INDEX payment_instructions_one_active_per_type
  ON payment_instructions (account_id, type) WHERE active;
