-- Reference data the account checks consult (decision 0090): the product catalogue and the
-- code lists. Every upload is a version of its registry ('products', or a list's name such as
-- 'tpr'); the newest version is the current one. Old versions are kept whole, so an operator can
-- page an earlier catalogue and see what an upload changed.
CREATE TABLE reference_versions (
  registry text NOT NULL,
  version integer NOT NULL,
  uploaded_by text NOT NULL,
  uploaded_at timestamptz NOT NULL DEFAULT now(),
  -- What the version holds: {products, tariffs} or {values}.
  counts jsonb NOT NULL,
  PRIMARY KEY (registry, version)
);

-- One row per product of a catalogue version, as uploaded (its tariffs inside).
CREATE TABLE catalogue_products (
  version integer NOT NULL,
  code text NOT NULL,
  product jsonb NOT NULL,
  PRIMARY KEY (version, code)
);

-- The tariffs of each version, for the supplier's keyset pages and the dashboard's counts.
CREATE TABLE catalogue_tariffs (
  version integer NOT NULL,
  code text NOT NULL,
  product_code text NOT NULL,
  region text NOT NULL,
  payment_method text NOT NULL,
  PRIMARY KEY (version, code)
);

CREATE TABLE code_list_values (
  name text NOT NULL,
  version integer NOT NULL,
  value text NOT NULL,
  PRIMARY KEY (name, version, value)
);

-- Which accounts use a tariff: the in-use refusal and the catalogue page count them.
CREATE INDEX agreements_tariff_code ON agreements (tariff_code);
