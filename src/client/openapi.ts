/**
 * Generated from Ferry's /openapi.json by openapi-typescript: do not edit.
 * Regenerate with `npm run client:generate`; CI fails when it drifts from the document.
 */
export interface paths {
    "/admin/v1/api-keys/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List API keys (never the keys themselves) */
        get: operations["adminListApiKeys"];
        put?: never;
        /** Issue an API key (the key is shown only in this answer) */
        post: operations["adminCreateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/api-keys/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke an API key; its tokens stop working at once */
        delete: operations["adminRevokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/email-outbox/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** E-mail delivery: counts per state and the latest permanent failures */
        get: operations["adminGetEmailOutbox"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-processes/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Processes by supplier, status and latest error code, one keyset page at a time */
        get: operations["adminListImportProcesses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-processes/{supplier}/{external}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A process: stored payload and full event history */
        get: operations["adminGetImportProcess"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-processes/{supplier}/{external}/cancel/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a STAGED, PENDING, ERRORED or DRY_RUN_* process */
        post: operations["adminCancelImportProcess"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-processes/{supplier}/{external}/retry/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send an ERRORED process back to PENDING */
        post: operations["adminRetryImportProcess"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-processes/cancel/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel every process a filter matches (where the state table allows it) */
        post: operations["adminCancelImportProcessesByFilter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-processes/export/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The same list as one streamed CSV or NDJSON export */
        get: operations["adminExportImportProcesses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-processes/retry/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Retry every ERRORED process a filter matches */
        post: operations["adminRetryImportProcessesByFilter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-suppliers/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List import suppliers with process counts */
        get: operations["adminListImportSuppliers"];
        put?: never;
        /** Create an import supplier */
        post: operations["adminCreateImportSupplier"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/v1/import-suppliers/{code}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One import supplier with process counts */
        get: operations["adminGetImportSupplier"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change status, document root or configuration */
        patch: operations["adminUpdateImportSupplier"];
        trace?: never;
    };
    "/admin/v1/import-suppliers/{code}/progress/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A supplier's accounts created per minute, for charts */
        get: operations["adminGetImportSupplierProgress"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/account-import-process/create-or-update/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stage account data without creating the account
         * @description Validated like validate-account, then kept: 201 the first time, 200 when it replaces staged data. No worker takes staged data; the process endpoint turns it into an account.
         */
        post: operations["createOrUpdateAccountImportProcess"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/account-import-process/process/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create the account from staged data, in this request
         * @description Re-validates the staged data and creates the account. At most 8 accounts of one supplier are created this way at once: beyond that, 429 with Retry-After.
         */
        post: operations["processAccountImportProcess"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/account-transfer-status/{import_supplier_code}/{external_account_number}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Transfer status of an account (V1) */
        get: operations["getAccountTransferStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/all-account-import-processes/{import_supplier_code}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** All pending and imported accounts of a supplier */
        get: operations["listAllAccountImportProcesses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/historical-statements/create/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import historical statements on an imported account
         * @description Historical statements, of any past period; a statement_path must name a PDF in the document store. A statement_id already imported is not duplicated, and the request succeeds again. Answers 201 with the validated data.
         */
        post: operations["createHistoricalStatements"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/imported-account-import-processes/{import_supplier_code}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Accounts that have been created */
        get: operations["listImportedAccountImportProcesses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/notes/create/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import notes on an imported account
         * @description A note is created only if the account has no note with the same body (and the same created_at when one is given); otherwise its status is NOTE_ALREADY_EXISTS. Every error is reported at once.
         */
        post: operations["createNotes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/payment-instruction/create/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Attach a payment instruction to an imported account
         * @description Fetches the instruction from its vendor and stores its details. The same vendor reference again answers the same 201. 400: validation errors, a permanent vendor failure (specific code; do not retry unchanged) or `account_has_active_instruction`. 500 `vendor_unavailable`: the vendor timed out, throttled or failed; retry unchanged. Every error body also carries error_detail, import_supplier, external_account_number and reference.
         */
        post: operations["createPaymentInstruction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/pending-account-import-processes/{import_supplier_code}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Accounts with staged data and no account yet */
        get: operations["listPendingAccountImportProcesses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/transactions/create/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Add ledger transactions to an imported account (all or nothing) */
        post: operations["createTransactions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/data-import/validate-account/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate account data and answer it as validated (V1)
         * @description The account itself is the body. 200 with the validated, normalised account.
         */
        post: operations["validateAccountV1"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/graphql/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Obtain a token (GraphQL mutation obtainToken)
         * @description The only unauthenticated operation: exchange an API key for a token.
         */
        post: operations["graphql"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/data-import/accounts/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedule account creation
         * @description Validates, then stages the account; a worker creates it asynchronously (poll the status endpoint). Re-sending a PENDING, ERRORED, CANCELLED or DRY_RUN_* account replaces its data.
         */
        post: operations["scheduleAccountCreation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/data-import/accounts/{import_supplier_code}/{external_identifier}/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Status of an account import process */
        get: operations["getAccountImportStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/data-import/accounts/bulk/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Schedule the creation of up to 1,000 accounts
         * @description Each account, bare or wrapped as {payload, task_params}, one JSON value per line (NDJSON) or as the elements of a JSON array. Each is checked and scheduled exactly as the create endpoint would (a line that cannot be read is refused alone); the answer holds one result per account, in order, with the status and body the create endpoint would have answered. Blank NDJSON lines are skipped; more than 1000 accounts, or a body over 32 MiB, are refused whole; a line over 5 MiB is refused alone (413 payload_too_large).
         */
        post: operations["scheduleAccountCreationInBulk"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/data-import/accounts/statuses/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Status of up to 1,000 account import processes
         * @description One result per external identifier, in the order sent, each with the status and body the status endpoint would have answered for it alone (200 with the status, or 404). One query answers them all: a client polling a book's accounts asks for them in batches.
         */
        post: operations["getAccountImportStatuses"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/data-import/accounts/validate/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Validate account data (nothing is created)
         * @description The account payload, bare or wrapped as {payload}. 200 {} when valid; otherwise every error at once.
         */
        post: operations["validateAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        AccountAlreadyImported: {
            /** @description The account number on this service. */
            account_id: string;
            non_field_errors: {
                /** @enum {string} */
                code: "account_import_process_already_imported";
                detail: string;
            };
        } & {
            [key: string]: unknown;
        };
        AccountAlreadyImportedV1: {
            /** @description Machine-readable and stable. */
            code: string;
            /** @description Human-readable; do not parse. */
            detail: string;
            domain?: string;
            errors?: {
                /** @description Dot-delimited path from the payload root; numeric parts are array indexes. */
                attr: string;
                code: string;
                detail: string;
            }[];
            external_account_number: string;
            non_field_errors: string[];
            service_account_number: string;
        } & {
            [key: string]: unknown;
        };
        /** @description Business accounts only. */
        AccountBillingOptions: {
            /** @enum {string|null} */
            period_length?: "MONTHLY" | "QUARTERLY" | null;
            /** @description Multiplies period_length: 2 × MONTHLY is bi-monthly. */
            period_length_multiplier?: number;
            /** @description Needs period_length. */
            period_start_day?: number | null;
            period_start_month?: number | null;
            /** @description If true, no period data may be given. */
            use_industry_billing?: boolean;
        };
        AccountCampaign: {
            /**
             * @description Deprecated: use slug. Name or slug, not both.
             * @default
             */
            campaign_name: string | null;
            /**
             * @description Added to the account as a note.
             * @default
             */
            campaign_note: string | null;
            /**
             * Format: date
             * @description Strictly after start_date.
             */
            expiry_date?: string | null;
            /**
             * Format: campaign-slug
             * @description An existing campaign.
             * @default
             */
            slug: string | null;
            /** Format: date */
            start_date?: string | null;
        };
        /**
         * @description A GB energy account to import.
         * @example {
         *       "import_supplier": "ACME",
         *       "external_account_number": "EXT-0001",
         *       "account_type": "DOMESTIC",
         *       "billing_name": "Ada Lovelace",
         *       "billing_address1": "12 Harbour Row",
         *       "billing_address2": "Portishead",
         *       "billing_postcode": "bs20 7dw",
         *       "customers": [
         *         {
         *           "title": "Ms",
         *           "given_name": "Ada",
         *           "family_name": "Lovelace",
         *           "email": "ada@example.org",
         *           "mobile": "07911 123456",
         *           "date_of_birth": "1985-12-10"
         *         }
         *       ],
         *       "supply_addresses": [
         *         {
         *           "supply_address1": "12 Harbour Row",
         *           "supply_address2": "Portishead",
         *           "supply_postcode": "BS20 7DW",
         *           "customer_at_supply_address_from_date": "2021-03-01",
         *           "meter_points": [
         *             {
         *               "identifier": "1900012345670",
         *               "supply_type": "ELECTRICITY",
         *               "mpid": "FERY",
         *               "supply_start_date": "2021-03-01",
         *               "profile_class": 1,
         *               "ssc": "0393",
         *               "agreements": [
         *                 {
         *                   "tariff_code": "E-1R-FERRY-FIX-24M",
         *                   "effective_from": "2021-03-01"
         *                 }
         *               ],
         *               "meters": [
         *                 {
         *                   "meter_serial_number": "F21K004512",
         *                   "installed_on": "2015-06-01",
         *                   "registers": [
         *                     {
         *                       "register_id": "1",
         *                       "tpr": "00001",
         *                       "number_of_digits": 5
         *                     }
         *                   ],
         *                   "transfer_readings": [
         *                     {
         *                       "register_id": "1",
         *                       "reading_date": "2024-10-31",
         *                       "reading_value": "10432.00",
         *                       "reading_type": "CUSTOMER"
         *                     }
         *                   ]
         *                 }
         *               ],
         *               "eac_history": [
         *                 {
         *                   "effective_from": "2024-04-01",
         *                   "tpr": "00001",
         *                   "consumption": "2900",
         *                   "source": "D0019"
         *                 }
         *               ]
         *             }
         *           ]
         *         }
         *       ],
         *       "last_billed_to_date": "2024-10-31",
         *       "transfer_balance": "-12.50",
         *       "ledgers": [
         *         {
         *           "last_statement_closing_date": "2024-10-31",
         *           "last_statement_balance": "-12.50",
         *           "ledger_balance": "-12.50"
         *         }
         *       ]
         *     }
         */
        AccountPayload: {
            account_billing_options?: components["schemas"]["AccountBillingOptions"];
            /** @description All by slug or all by name; no repeats. */
            account_campaigns?: components["schemas"]["AccountCampaign"][];
            /** @enum {string} */
            account_type?: "DOMESTIC" | "BUSINESS" | "MANAGED" | "PORTFOLIO_LEAD" | "DOMESTIC_VACANT" | "BUSINESS_VACANT" | "DOMESTIC_OCCUPIER" | "BUSINESS_OCCUPIER" | "SYSTEM" | "DOMESTIC_THIRD_PARTY_BILLED" | "BUSINESS_THIRD_PARTY_BILLED";
            /** @description Overrides sales channel and subchannel. */
            affiliate_subdomain?: string | null;
            billing_address?: components["schemas"]["BillingAddress"];
            /** @description With billing_postcode, required unless occupier. */
            billing_address1?: string;
            billing_address2?: string;
            billing_address3?: string;
            billing_address4?: string;
            billing_address5?: string;
            billing_attention_of?: string;
            billing_customer_reference?: string;
            /** Format: delivery-point-identifier */
            billing_delivery_point_identifier?: string;
            /** Format: billing-email */
            billing_email?: string | null;
            billing_name?: string;
            /**
             * Format: gb-postcode
             * @description Normalised to AA9A 9AA form.
             */
            billing_postcode?: string;
            billing_sub_name?: string;
            business?: components["schemas"]["Business"];
            /**
             * @description Deprecated: use business.business_type.
             * @enum {string}
             */
            business_type?: "SOLE_TRADER" | "LTD" | "PTY_LTD" | "PARTNERSHIP" | "CHARITY" | "PLC" | "LLP" | "TRUST" | "TRADING_AS" | "GOVERNMENT" | "NON_PROFIT" | "CHURCH" | "HOMEOWNER_ASSOCIATION" | "TBD" | "";
            commission_contracts?: components["schemas"]["CommissionContract"][];
            /**
             * @default ONLINE
             * @enum {string}
             */
            communication_preference: "ONLINE" | "PRINT";
            /**
             * Format: company-number
             * @description Deprecated: use business.company_number.
             */
            company_number?: string;
            complaints?: components["schemas"]["Complaint"][];
            /** @description Each consent type at most once. */
            consents?: components["schemas"]["Consent"][];
            contribution_agreements?: components["schemas"]["ContributionAgreement"][];
            /** @description Unbilled; with last_statement_balance they make up transfer_balance. */
            current_statement_transactions?: (components["schemas"]["CreditCurrentStatementTransaction"] | components["schemas"]["ChargeCurrentStatementTransaction"] | components["schemas"]["PaymentCurrentStatementTransaction"] | components["schemas"]["RepaymentCurrentStatementTransaction"] | components["schemas"]["SupplyChargeCurrentStatementTransaction"])[];
            /** @description None for an unknown occupier. */
            customers?: components["schemas"]["Customer"][];
            /** Format: date */
            date_of_sale?: string;
            /** @description Deprecated: use payment_instructions. */
            dd_reference?: string;
            debt?: components["schemas"]["Debt"];
            /** @description Not together with the deprecated debt. */
            debts?: components["schemas"]["Debt"][];
            /** @description At most one. */
            deposit_agreements?: components["schemas"]["DepositAgreement"][];
            /**
             * @default
             * @enum {string}
             */
            document_accessibility: "LARGE_PRINT" | "BRAILLE" | "SPOKEN" | "";
            dunning_path?: components["schemas"]["DunningPath"];
            /** @description The account number in the source system; never blank. */
            external_account_number?: string;
            fit?: components["schemas"]["Fit"];
            /** @description Already billed; they sum to last_statement_balance. */
            historical_statement_transactions?: (components["schemas"]["CreditCurrentStatementTransaction"] | components["schemas"]["ChargeCurrentStatementTransaction"] | components["schemas"]["PaymentCurrentStatementTransaction"] | components["schemas"]["RepaymentCurrentStatementTransaction"] | components["schemas"]["SupplyChargeCurrentStatementTransaction"])[];
            /** @description Code of the import supplier migrating the account. */
            import_supplier: string;
            /** @description Deprecated: use account_type. */
            is_managed?: boolean | null;
            /** @description Deprecated: use account_type. */
            is_portfolio_lead?: boolean | null;
            /** @enum {string} */
            language_preference?: "en-gb" | "en-us" | "es-419" | "fr-fr";
            /**
             * Format: date
             * @description Inclusive.
             */
            last_billed_to_date?: string;
            /**
             * Format: date
             * @description Not in the future.
             */
            last_payment_review_date?: string | null;
            /** @description Deprecated: use ledgers. Pounds. */
            last_statement_balance?: string | number;
            /**
             * Format: date
             * @description Deprecated: use ledgers.
             */
            last_statement_closing_date?: string;
            /**
             * Format: date
             * @description Deprecated: use ledgers.
             */
            last_statement_issue_date?: string;
            ledgers?: components["schemas"]["Ledger"][];
            /** @description Keys unique. */
            metadata?: components["schemas"]["Metadata"][];
            /**
             * Format: date
             * @description Required for quarterly non-industry billing.
             */
            next_bill_due_date?: string | null;
            notes?: components["schemas"]["Note"][];
            /** @description An existing operations team. */
            operations_team_name?: string;
            partner_organisations?: components["schemas"]["PartnerOrganisation"][];
            /** @description Not together with last_payment_review_date. */
            payment_adequacy_changes?: components["schemas"]["PaymentAdequacyChange"][];
            payment_instructions?: components["schemas"]["PaymentInstruction"][];
            payment_plans?: components["schemas"]["PaymentPlan"][];
            payment_preferences?: (components["schemas"]["ActiveExistingPaymentPreference"] | components["schemas"]["ActiveNewPaymentPreference"] | components["schemas"]["PassivePaymentPreference"])[];
            payment_promises?: components["schemas"]["PaymentPromise"][];
            payment_schedules?: components["schemas"]["PaymentSchedule"][];
            portfolio?: {
                billing_name?: string;
                notes?: components["schemas"]["Note"][];
                portfolio_references?: components["schemas"]["PortfolioReference"][];
                /** @description Only on a portfolio lead account. */
                portfolio_settings?: {
                    /** @default false */
                    collective_billing: boolean;
                    /** @default false */
                    collective_payments: boolean;
                    /** @default false */
                    delegate_billing_schedule_to_children: boolean;
                    /** @default false */
                    send_collective_bill_constituent_messages: boolean;
                } | null;
            } | null;
            references?: components["schemas"]["Reference"][];
            /**
             * @default DIRECT
             * @enum {string}
             */
            sales_channel: "DIRECT" | "PRICE_COMPARISON" | "TELESALES" | "DIGI_TELESALES" | "EVENTS" | "FIELD_SALES" | "AGGREGATOR" | "PARTNERSHIPS" | "NEW_TENANT" | "MOVE_IN" | "WORKPLACE_POP_UP" | "BROKER" | "PARENT_POWER" | "PEOPLE_POWER" | "GIFT_OF_KIT" | "HIGH_REFERRER" | "SUPPLIER_OF_LAST_RESORT" | "ACQUISITION" | "WORKS_WITH_OCTOPUS" | "LANDLORD" | "DEBT_COLLECTION_AGENCY" | "";
            sales_subchannel?: string;
            /** @description Day of the month, 1 to 28. */
            smart_read_cycle_day?: number;
            /** @enum {string} */
            smart_read_frequency?: "MONTHLY" | "DAILY" | "HALF_HOURLY" | "DENIED" | "";
            statements?: components["schemas"]["Statement"][];
            supply_addresses?: components["schemas"]["SupplyAddress"][];
            /** @description Pounds; credit positive, debit negative. */
            transfer_balance?: string | number;
            /** @description If true: no customers, at most one supply address. */
            unknown_occupier?: boolean | null;
            warm_home_discount?: components["schemas"]["WarmHomeDiscount"][];
        };
        ActiveExistingPaymentPreference: {
            instruction_reference_params: components["schemas"]["InstructionReferenceParams"];
            /** @description ledger_identifier of one of the payload’s ledgers. */
            ledger_identifier: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "ActiveExistingPaymentPreference";
        };
        ActiveNewPaymentPreference: {
            instruction_reference_params: components["schemas"]["ActiveNewPaymentPreferenceInstructionReferenceParams"];
            /** @description ledger_identifier of one of the payload’s ledgers. */
            ledger_identifier: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "ActiveNewPaymentPreference";
        };
        ActiveNewPaymentPreferenceInstructionReferenceParams: {
            /** @description instruction_identifier of one of payment_instructions. */
            instruction_identifier: string;
        };
        Address: {
            county?: string;
            line1: string;
            line2?: string;
            /** Format: gb-postcode */
            postcode: string;
            town?: string;
        };
        AgedDebt: {
            debt_amount?: string | number;
            /** Format: date */
            due_date?: string;
        };
        Agreement: {
            /** Format: date-time */
            agreed_at?: string | null;
            /** @description Business accounts only. */
            bespoke_tariff_rates?: components["schemas"]["BespokeTariffRate"][];
            /** @description One of business.business_contract_identifiers. */
            business_contract_identifier?: string | null;
            /** @description Each code at most once. */
            characteristics?: (components["schemas"]["SalesChannelCharacteristic"] | components["schemas"]["GbrElectricityPaymentMethodCharacteristic"] | components["schemas"]["GbrElectricityMeterRateProfileCharacteristic"] | components["schemas"]["GbrGasMeterPointGridSupplyPointEquivalentCharacteristic"] | components["schemas"]["GbrGasPaymentMethodCharacteristic"])[] | null;
            /**
             * Format: date
             * @description Inclusive; not before the supply start date.
             */
            effective_from: string;
            /**
             * Format: date
             * @description Exclusive; omit for open-ended.
             */
            effective_to?: string | null;
            intermediary?: {
                external_id?: string | null;
                /**
                 * Format: portfolio-number
                 * @description "P-" and 8 capitals or digits.
                 */
                portfolio_number: string;
            } | null;
            rate_overrides?: components["schemas"]["RateOverride"][] | null;
            /** Format: date-time */
            rates_agreed_at?: string | null;
            /**
             * Format: tariff-code
             * @description Code of an existing tariff.
             */
            tariff_code: string;
        };
        AgreementBespokeTariffRate: {
            meter_serial_number?: string;
            /** @enum {string|null} */
            payment_method?: "DD" | "NDD" | "PP" | "" | null;
            /** @description Pence per day, excluding VAT. */
            standing_charge: string | number;
            /** @description Pence per kWh, excluding VAT. */
            unit_rate: string | number;
        };
        AlternativePhoneNumber: {
            /**
             * Format: phone-number
             * @description An additional contact number.
             * @default
             */
            phone_number: string | null;
        };
        AmountComponent: {
            amount: number;
            /** @description Depends on the strategy. */
            component_type: string;
        };
        AqHistory: {
            consumption: string | number;
            /**
             * Format: date
             * @description The day after the previous entry ends.
             */
            effective_from: string;
            /**
             * Format: date
             * @description Inclusive; omit on the open-ended entry.
             */
            effective_to?: string | null;
            source?: string;
        };
        BespokeTariffRate: {
            meter_serial_number?: string;
            /** @enum {string|null} */
            payment_method?: "DD" | "NDD" | "PP" | "" | null;
            registers: components["schemas"]["Register"][];
            /** @description Pence per day, excluding VAT. */
            standing_charge: string | number;
        };
        /** @description Billing address; not together with billing_address1..5 / billing_postcode. */
        BillingAddress: {
            /** @default  */
            administrative_area: string;
            /** @description ISO 3166-1 alpha-2 code, e.g. GB. */
            country: string;
            /**
             * Format: delivery-point-identifier
             * @description UPRN: capitals and digits.
             */
            delivery_point_identifier?: string;
            /** @default  */
            dependent_locality: string;
            /** @default  */
            locality: string;
            /**
             * @description Deprecated.
             * @default
             */
            name: string;
            /**
             * @description Deprecated.
             * @default
             */
            organization: string;
            /**
             * @description Validated and normalised for GB.
             * @default
             */
            postal_code: string;
            /** @default  */
            sorting_code: string;
            /**
             * @description Not together with structured_street_address.
             * @default
             */
            street_address: string;
            /** @description Territory-specific street parts. */
            structured_street_address?: {
                [key: string]: unknown;
            } | null;
        };
        /** @description Scheduled (201): an empty object. */
        BulkCreated: Record<string, never>;
        Business: {
            /** @description Deprecated: use business_contract_identifiers. */
            business_contract_identifier?: string;
            /** @description Contracts the account links to; agreements may refer to them. */
            business_contract_identifiers?: string[];
            /** @enum {string} */
            business_type?: "SOLE_TRADER" | "LTD" | "PTY_LTD" | "PARTNERSHIP" | "CHARITY" | "PLC" | "LLP" | "TRUST" | "TRADING_AS" | "GOVERNMENT" | "NON_PROFIT" | "CHURCH" | "HOMEOWNER_ASSOCIATION" | "TBD";
            company_name?: string;
            /**
             * Format: company-number
             * @description Companies House number; normalised.
             */
            company_number?: string;
            /** @description Each key at most once. */
            details?: components["schemas"]["Detail"][];
            portfolios?: components["schemas"]["Portfolio"][];
            /** @description Segment as configured for the instance. */
            segment_name?: string;
            users?: components["schemas"]["User"][];
        };
        CapacityValue: {
            /** Format: date */
            effective_from_date: string;
            /**
             * Format: date
             * @description Inclusive.
             */
            effective_to_date?: string;
            /** @description kVA. */
            value: string | number;
        };
        CclExemption: {
            /** Format: date */
            effective_from: string;
            /**
             * Format: date
             * @description Strictly after effective_from; omit for open-ended.
             */
            effective_to?: string;
            /** @description Proportion exempt: 1.0 is 100%. */
            rate: string | number;
        };
        ChargeCurrentStatementTransaction: {
            /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
            amount: string | number;
            /** @description Historical statement transactions only. */
            billing_document_identifier?: string;
            display_note?: string;
            note?: string;
            /** @enum {string} */
            reason: "DEFAULT" | "BALANCE_TRANSFER" | "CONTRIBUTION_TAX_FREE" | "DATA_IMPORT_BALANCE_TRANSFER" | "DEPOSIT" | "BALANCE_TRANSFER_FOR_FINAL_BILLED_ACCOUNT" | "IMPORTED_CHARGE" | "SUPPLEMENTARY_LEDGER_BALANCE_TRANSFER" | "REVERSED_ACCOUNT_CREDIT" | "LATE_PAYMENT_FEE_CHARGE" | "PREPAY_BALANCE_ADJUSTMENT" | "PREPAY_IMBALANCE_WRITE_OFF" | "PREPAY_MIGRATION_IMBALANCE" | "AC_ADJUSTMENT" | "ADJUSTED_CREDIT_TO_ALLOW_REFUND" | "AUTO_RECONCILIATION" | "BUSINESS_ADVANCE_PAYMENT" | "BUSINESS_PREPAYMENT" | "CARBON_OFFSET" | "CREDIT_BALANCE_DONATED_TO_CHARITY" | "DCA_CHARGE" | "DEBT_ASSIGNMENT_GAINING_SUPPLIER" | "DIRECT_DEBIT_REFUND_BALANCING" | "FEED_IN_TARIFF_PAYMENT_TRANSFER_TO_NOMINATED_RECIPIENT" | "GREEN_DEAL_CHARGE" | "INCORRECT_PAYMENT_REVERSAL" | "METERING_JOB_BUSINESS" | "METERING_JOB_NATIONAL_GRID" | "METERING_JOB_SMS" | "NEST_LEARNING_THERMOSTAT_RENTAL" | "OUTGOING_BALANCE_TRANSFER" | "OVER_THE_COUNTER_PAYMENT_FEE" | "PAPER_BILL_FEE" | "PENALTY_CHARGE" | "PREPAY_DEBT_ADJUSTMENT" | "REASON_EARLY_EXIT_FEE" | "REFUND" | "SERVICE_ORDER" | "SOLR_BALANCE_TRANSFER" | "WATER" | "WRITE_BACK" | "EBSS_CHARGE_REVERSAL" | "LATE_PAYMENT_FEE" | "RPS_INVESTIGATION_CHARGE" | "RPS_WARRANT_CHARGE" | "RPS_DAMAGE" | "RPS_RESEAL_FEE" | "SAP_MIGRATED_DEBITS" | "ADDITIONAL_CHARGES_0" | "ADDITIONAL_CHARGES_20" | "ADDITIONAL_CHARGES_5" | "RECONNECTION_CHARGE" | "GREENDEALCHARGE" | "OPUS_FINAL_BALANCE_TRANSFER" | "REASON_EARLY_EXIT_FEE_5" | "TEMP_REFUND" | "MIGRATION_ADJUSTMENT" | "WELFARE_VISIT_FEE" | "WARRANT_FEES_COSTS" | "WARRANT_EXECUTION_FEE" | "TERM_DCA_FEE" | "POST_OFFICE_PAYMENT_CORRECTION" | "RPS_LOSS_5" | "RPS_ADJUSTMENT_20" | "RPS_CCL_ADJUSTMENT" | "METERING_APPOINTMENT_FAILURE" | "REASON_EARLY_EXIT_FEE_0" | "PAYMENT_CORRECTION" | "OPUS_FINAL_BALANCE_ADJUSTMENT" | "LATE_PAYMENT_RESI" | "LATE_PAYMENT_SME" | "EARLY_TERMINATION_FEE" | "TRANSFERRED_DEBT_BILL_ADJUSTMENT" | "INDEMNITY_CLAIM" | "SAP_WRITE_OFF_RECOVER" | "DEBTSOLD_PAYMENTREVERSAL" | "CHAPS_REFUND";
            reference?: string;
            /** @description Omitted means no tax. */
            tax_items?: components["schemas"]["TaxItem"][];
            /** @description Vend to a prepay meter; must match a meter with prepay_details. */
            to_prepay_meter_serial_number?: string;
            /**
             * Format: date
             * @description Not in the future.
             */
            transaction_date: string;
            /** @description Unique across all transactions of the payload. At most 128 characters. */
            transaction_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "ChargeCurrentStatementTransaction";
        };
        CommissionContract: {
            /** @description An existing affiliate organisation. */
            affiliate_organisation_name: string;
            /**
             * @description Deprecated.
             * @enum {string}
             */
            commission_type?: "UNIT_RATE_UPLIFT";
            /**
             * Format: date
             * @description Inclusive.
             */
            effective_from: string;
            /**
             * Format: date
             * @description Exclusive; not before effective_from.
             */
            effective_to: string;
            /**
             * Format: mpxn
             * @description MPAN or MPRN the commission applies to.
             */
            mpxn: string;
            /** @description Pence per day. */
            standing_charge_uplift?: string | number;
            /** @enum {string} */
            status: "PAID" | "PAYABLE";
            /** @description Pence per kWh. */
            unit_rate_uplift?: string | number;
            /** @description Deprecated: use unit_rate_uplift. Pence. */
            value?: string | number;
        };
        Complaint: {
            /** Format: customer-email */
            complainant_email: string;
            complainant_name: string;
            complaint_contacts: components["schemas"]["ComplaintContact"][];
            /** Format: date-time */
            created_at: string;
            has_chsr_letter_been_sent: boolean;
            /** @description If true, the CHSR letter was sent too. */
            has_eight_week_letter_been_sent: boolean;
            /** @description Official complaints give entity, reference and status. */
            official_entity?: string;
            official_reference_number?: string;
            official_status?: string;
            subtype_of_complaint: string;
            type_of_complaint: string;
        };
        ComplaintContact: {
            body: string;
            /** @enum {string} */
            communication_method: "LANDLINE" | "MOBILE" | "EMAIL" | "POST";
            /** @description A configured communication source. */
            communication_source: string;
            /** Format: date-time */
            created_at: string;
            /** @enum {string} */
            status: "OPEN" | "RESOLVED" | "NO_CONTACT" | "REOPENED" | "DEADLOCK" | "CANCELLED";
        };
        ConfigurationPeriod: {
            /**
             * Format: date
             * @description In the past.
             */
            effective_from_date: string;
            /**
             * Format: date
             * @description Omitted on the latest period.
             */
            effective_to_date?: string;
            /** @enum {string} */
            energisation_status?: "E" | "D";
            gsp?: string;
            llf?: string;
            /** @enum {string} */
            measurement_class?: "A" | "B" | "C" | "D" | "E" | "F" | "G";
            mtc?: number;
            profile_class?: number;
            ssc?: string;
        };
        Consent: {
            description?: string;
            /**
             * Format: date-time
             * @description When the consent was given; not in the future.
             */
            signed_at?: string;
            /** @description Consent type as configured for the instance. */
            type: string;
            /** @enum {string} */
            value: "ACCEPTED" | "REJECTED" | "UNKNOWN" | "PENDING";
        };
        ContributionAgreement: {
            /**
             * Format: date
             * @description Inclusive.
             */
            active_period_end_date?: string | null;
            /**
             * Format: date
             * @description Inclusive.
             */
            active_period_start_date: string;
            amount: string | number;
            /** @enum {string} */
            interval: "MONTHLY" | "QUARTERLY";
            /** @description Inside the active period; not overlapping. */
            periods?: components["schemas"]["Period"][];
            /**
             * Format: contribution-scheme-code
             * @description An existing scheme code.
             */
            scheme: string;
        };
        CreditCurrentStatementTransaction: {
            /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
            amount: string | number;
            /** @description Historical statement transactions only. */
            billing_document_identifier?: string;
            display_note?: string;
            note?: string;
            /** @enum {string} */
            reason: "BALANCE_ADJUSTMENT" | "BALANCE_TRANSFER" | "BANK_TRANSFER" | "CONTRIBUTION_TAX_FREE" | "CUSTOMER_SERVICE_GESTURE" | "DEPOSIT" | "DIRECT_DEBIT_DISCOUNT" | "JOINING_REWARD" | "LOYALTY_REWARD" | "REVERSED_ACCOUNT_CHARGE" | "CUSTOMER_REIMBURSEMENT" | "DATA_IMPORT_BALANCE_TRANSFER" | "DEBIT_BALANCE_TRANSFER" | "GOODWILL_PAYMENT" | "IMPORTED_CREDIT" | "SUPPLEMENTARY_LEDGER_BALANCE_TRANSFER" | "WRITE_OFF_PAST_BILLABLE_AUTOMATED" | "WRITE_OFF_BACK_BILLING" | "WRITE_OFF_NEGLIGIBLE_VALUE" | "WRITE_OFF_UNRECOVERABLE_DEBT" | "WRITE_OFF_PAST_BILLABLE" | "WRITE_OFF_RECOVERY_DISCOUNT" | "WRITE_OFF_BANKRUPTCY" | "WRITE_OFF_DRO" | "WRITE_OFF_IVA" | "WRITE_OFF_DECEASED" | "WRITE_OFF_MISSED_PAYMENT_DELETION" | "UNLIKELY_TO_RECOVER_WRITE_OFF" | "REFERRING_ACCOUNT_REFERRAL_REWARD" | "REFERRED_ACCOUNT_REFERRAL_REWARD" | "PREPAY_BALANCE_ADJUSTMENT" | "PREPAY_IMBALANCE_WRITE_OFF" | "PREPAY_MIGRATION_IMBALANCE" | "ACCURACY_TEST_ADJUSTMENT" | "ADDITIONAL_SOP_PAYMENT_APPOINTMENTS" | "ADDITIONAL_SOP_PAYMENT_CUSTOMER_NOT_RETURNED" | "ADDITIONAL_SOP_PAYMENT_ELECTRICITY_SWITCH_DELAYED" | "ADDITIONAL_SOP_PAYMENT_ERRONEOUS_TRANSFER" | "ADDITIONAL_SOP_PAYMENT_ET_COMMS_OVERDUE" | "ADDITIONAL_SOP_PAYMENT_ET_GAIN_ACCEPTED" | "ADDITIONAL_SOP_PAYMENT_ET_GAIN_UNRESOLVED" | "ADDITIONAL_SOP_PAYMENT_ET_LOSS_UNRESOLVED" | "ADDITIONAL_STANDARD_PAYMENT" | "ADJUSTED_CREDIT_TO_ALLOW_REFUND" | "ADJUSTMENT_ON_RETURNED_DEPOSIT" | "BALANCE_TRANSFER_FOR_FINAL_BILLED_ACCOUNT" | "CHEQUE_PAYMENT_RECEIVED" | "CLOSED_REVERSION" | "DEBT_ASSIGNMENT_LOSING_SUPPLIER" | "DEPOSIT_REFUND" | "DIRECT_DEBIT_BANK_CHARGE_MAY" | "DISC_WARM_HOME_DISCOUNT" | "DISPUTED_CARD_PAYMENTS" | "ECONOMY_7_DIFFERENCE" | "ERRONEOUS_TRANSFER_REFUND" | "EXIT_FEE_REFUND" | "EXPORT_TARIFF_PAYMENT" | "EXTERNAL_REFERRAL_CREDIT" | "FEED_IN_TARIFF_PAYMENT" | "GO_CARDLESS_CHARGEBACK_CANCELLED" | "GSS_AFFECT" | "GSS_FAILURE" | "GSS_FAILURE_MOP" | "HONOURED_BANK_CHARGES" | "INCOMING_PAYMENT_GO_CARDLESS" | "MANAGEMENT_WAIVED_FEES" | "MARKET_RESEARCH_CLUB_REWARD" | "MISSED_SAVINGS" | "OFFSET" | "PAYMENT_BANK_ACCOUNT" | "PAYMENT_BPAY" | "PAYMENT_CENTREPAY" | "PAYMENT_CHEQUE" | "PAYMENT_CREDIT_CARD" | "PAYMENT_TRANSFER_FROM_SAP" | "PREPAY_DEBT_ADJUSTMENT" | "QLD_ASSET_OWNERSHIP_DIVIDEND" | "RECEIVED_VIA_CREDIT_STYLE" | "REFERRALCANDY_INCENTIVE" | "REINSTATED_DIRECT_DEBIT" | "RETURNED_BUSINESS_ADVANCE_PAYMENT" | "RETURNED_BUSINESS_PREPAYMENT" | "REVERSE_ENERGY_CHARGE" | "REVERSIONED_POST_DD_CANX" | "SALES_COMPENSATION" | "SHARE_OF_PROFITS" | "SINGLE_RATE_RMI" | "SME_REVERSED_PRE_MIGRATION_CHARGE" | "SOLAR_GOODWILL" | "SOLR_BALANCE_TRANSFER" | "SOLR_EX_CUSTOMER_CREDIT" | "SOLR_WRITE_OFF" | "STAFF_DISCOUNT" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_FAULTY_METER_ELEC" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_PREPAY_METER_ELEC" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_RECONNECTION_ELEC" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_STANDARD_VISIT_ELEC" | "STANDARDS_OF_PERFORMANCE_CUSTOMER_NOT_RETURNED" | "STANDARDS_OF_PERFORMANCE_ERRONEOUS_TRANSFER" | "STANDARDS_OF_PERFORMANCE_ET_COMMS_OVERDUE" | "STANDARDS_OF_PERFORMANCE_ET_GAIN_ACCEPTED" | "STANDARDS_OF_PERFORMANCE_ET_GAIN_UNRESOLVED" | "STANDARDS_OF_PERFORMANCE_ET_LOSS_UNRESOLVED" | "STANDARDS_OF_PERFORMANCE_FINAL_BILL_ISSUED_LATE" | "STANDARDS_OF_PERFORMANCE_PAYMENTS" | "STANDARDS_OF_PERFORMANCE_REFUND_ISSUED_LATE" | "TARIFF_DISCOUNT" | "TARIFF_PRICE_ADJUSTMENT_GOODWILL" | "WAIVE_TERMINATION_FEES" | "WITHDRAWAL_NOT_ACTIONED" | "EBSS_CREDIT" | "WARM_HOME_DISCOUNT_BROADER_GROUP" | "WARM_HOME_DISCOUNT_CORE_GROUP" | "WARM_HOME_DISCOUNT_CORE_GROUP_1" | "WARM_HOME_DISCOUNT_CORE_GROUP_2" | "ADDITIONAL_SOP_PAYMENT_GAS_SWITCH_DELAYED" | "GAS_NETWORK_COMPENSATION" | "GAS_OFF_SUPPLY_PAYMENT" | "GOVERNMENT_ENERGY_ASSISTANCE_HEEA" | "PAYMENT_AUSPOST" | "PAYMENT_EAPA_VOUCHER" | "PAYMENT_IVR" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_FAULTY_METER_GAS" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_PREPAY_METER_GAS" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_RECONNECTION_GAS" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_STANDARD_VISIT_GAS" | "MIGRATION_ADJUSTMENT" | "BILL_ADJUSTMENT_0" | "BILL_ADJUSTMENT_20" | "BILL_ADJUSTMENT_5" | "GOODWILL" | "DAILY_STANDING_CHARGE_ROLLBACK" | "CANCELLED_CHEQUE_RESI" | "CANCELLED_CHEQUE_SME" | "PREPAYMENT_ADDITIONAL_SUPPORT_CREDIT" | "WELFARE_VISIT_FEE_REVERSAL" | "WARRANT_FEES_COSTS_REVERSAL" | "WARRANT_EXECUTION_FEE_REVERSAL" | "MISDIRECTED_CREDIT_PAYMENT" | "MISSING_PREPAYMENT_TOP_UP" | "TERM_DCA_FEE_REVERSAL" | "HAMPTON_FUEL_PAYMENT" | "DEEMED_0_CONSUMPTION_WRITE_OFF" | "NET_ZERO_HERO_AWARD" | "STANDARD_OF_PERFORMANCE_ELEC_SWITCH_DELAY" | "STANDARD_OF_PERFORMANCE_GAS_SWITCH_DELAY" | "ADDITIONAL_SOP_FINAL_BILL_OVERDUE" | "EMAIL_PRIZE_DRAW" | "GREEN_DEAL" | "GREEN_DEAL_WRITE_OFF" | "GREEN_DEAL_BILL_ADJUSTMENT" | "OPUS_FINAL_BALANCE_TRANSFER" | "OPUS_FINAL_BALANCE_ADJUSTMENT" | "WARM_HOME_DISCOUNT_REBATE_5" | "RECONNECTION_CHARGE_REV" | "DAP_LOSING_SUPPLIER_10" | "DAP_LOSING_SUPPLIER_90" | "LOYALTY_RETAIN" | "SUNDAY_SAVER" | "RMGEDF24" | "SAP_MIGRATED_CREDITS" | "TESEDF24" | "WHIEDF24" | "VODEDF24" | "NISEDF24" | "EV_50_CREDIT" | "PLUG__POWER_300_CREDIT" | "PLUG__POWER_200_CREDIT" | "RENEWAL_CREDIT" | "EV_FLEX_SCHEME_CREDIT" | "REFER_A_FRIEND_5" | "WRITE_OFF_UNRECOVERABLE_DEBT_RESI" | "INDEMNITY_CLAIM" | "VALENTINES_DAY" | "RIPPLE_ENERGY_CREDIT_RESI" | "RIPPLE_ENERGY_CREDIT_BUSINESS" | "RESQEDF25" | "PREEDF25" | "TRANSFERRED_DEBT_BILL_ADJUSTMENT" | "SBOFFERCREDIT" | "EVRI100" | "OPUS_DEENERGISED_ADJUSTMENT" | "SMART_CHARGING_INCENTIVE" | "SMART_CHARGING_SAVING" | "FAFS_TERMED_ACCOUNT" | "PLUG__POWER_100_CREDIT" | "SETTLEMENT_LIVE_ACCOUNT" | "TENNIS_FINALS_CREDIT" | "SCHOOL_HOLIDAYS_CREDIT" | "CHRISTMAS_DAY_CREDIT" | "FREE_PHASE_FREE_ELECTRICITY" | "EARLY_RENEWAL_50_CREDIT" | "GOELECTRIC_130_OFFER" | "EXPORT_TARIFF_PAYMENT_RESI" | "REFER_A_FRIEND_NEW" | "DEBTSOLD_PAYMENTREVERSAL" | "BUPEDF25" | "CARE_SUPPORT_SCHEME" | "UTILITA_TRANSFER" | "WELCOMEGAS1YEAR" | "UTILITA_FINAL_BALANCE_TRANSFER" | "WELCOMEGAS2YEAR" | "WELCOMEGAS3YEAR" | "WELCOMEGAS4YEAR" | "EARLY_RENEWAL_75_CREDIT" | "SUNDAY_SAVER__ERRONEOUS_MESSAGE_COMPENSATION" | "EV_SWITCH_BONUS_50" | "SBNEWACQ1YEAR" | "SBNEWACQ2YEAR" | "SBNEWACQ3YEAR" | "SBNEWACQ4YEAR" | "SBNEWACQ100" | "SBNEWACQ150" | "SBNEWACQ175" | "SBNEWACQ200" | "LATE_PAYMENT_REVERSAL" | "OVERDALES_DEBT_WRITE_OFF" | "SBNEWACQFIX50" | "SBNEWACQFIX150" | "SBNEWACQFIX100" | "SBNEWACQFIX175" | "OFGEM_DEBT_RELIEF_SCHEME_GROUP_1" | "SB_DEBT_WRITTEN_OFF_DEBT_RECOVERY_ACTION_CONTINUING_20" | "SB_DEBT_WRITTEN_OFF_DEBT_RECOVERY_ACTION_CONTINUING_5_VAT" | "OFGEM_DEBT_RELIEF_SCHEME_GROUP_2" | "SB_FREE_ENERGY" | "ADDITIONAL_SOP_FINAL_BILL_REFUND_OVERDUE" | "LOW_STANDING_CHARGE_TRIAL_GAS" | "LOW_STANDING_CHARGE_TRIAL_ELECTRICITY" | "NEWACQGAS200" | "UUEDF26" | "CHAPS_PAYMENT" | "FOOTBALL_CREDIT" | "RESI_DEBT_WRITTEN_OFF_DEBT_RECOVERY_ACTION_CONTINUING" | "SBEXTRANEWACQ100" | "SBEXTRANEWACQ150" | "SBEXTRANEWACQ25" | "SBEXTRANEWACQ50" | "SBEXTRANEWACQ75";
            reference?: string;
            /** @description Vend to a prepay meter; must match a meter with prepay_details. */
            to_prepay_meter_serial_number?: string;
            /**
             * Format: date
             * @description Not in the future.
             */
            transaction_date: string;
            /** @description Unique across all transactions of the payload. At most 128 characters. */
            transaction_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "CreditCurrentStatementTransaction";
        };
        CreditHold: {
            /** Format: date */
            active_from: string;
            notes?: string;
            /** @enum {string} */
            reason: "HAS_NOMINATED_RECIPIENT" | "INVOLVED_IN_COO" | "SWITCH_LOSS" | "LINKED_TO_WRONG_ACCOUNT" | "PAID_INCORRECTLY" | "MIGRATED_IN_DISPUTE" | "AWAITING_SIGNED_FIT_PLAN" | "CLOSED_INSTALLATION" | "NEEDS_MANUAL_PAYMENT" | "BIENNIAL_DISPUTES" | "OTHER";
        };
        Customer: {
            account_roles?: ("POWER_OF_ATTORNEY" | "NEIGHBOUR" | "LOA_LEVEL_1" | "LOA_LEVEL_3" | "CARER" | "ADMIN" | "EXECUTOR" | "LOA_LEVEL_2" | "STUDENT_HOUSE" | "FRIEND_FAMILY_MEMBER")[];
            alternative_phone_numbers?: components["schemas"]["AlternativePhoneNumber"][];
            /** @description Each consent type at most once. */
            consents?: components["schemas"]["Consent"][];
            /** @description Extra e-mail addresses. */
            contact_emails?: string[];
            credit_assessment_id?: string | null;
            credit_result?: string | null;
            /** @enum {string|null} */
            credit_risk_bracket?: "LOW" | "MID" | "HIGH" | "UNKNOWN" | "" | null;
            credit_score?: number | null;
            customer_preferences?: components["schemas"]["CustomerPreferences"];
            /** Format: date */
            date_of_birth?: string | null;
            /**
             * @default
             * @enum {string}
             */
            deceased: "Reported" | "Confirmed" | "";
            /** @description Deprecated: use user_details. */
            details?: unknown;
            /**
             * Format: customer-email
             * @description Test-looking addresses are rejected.
             */
            email?: string | null;
            /** @default  */
            family_name: string;
            /** @default  */
            given_name: string;
            label?: string | null;
            /**
             * Format: phone-number
             * @description Landline number.
             * @default
             */
            landline: string | null;
            metadata?: components["schemas"]["Metadata"][];
            /**
             * Format: phone-number
             * @description Mobile number.
             * @default
             */
            mobile: string | null;
            portfolio_roles?: ("POWER_OF_ATTORNEY" | "NEIGHBOUR" | "LOA_LEVEL_1" | "LOA_LEVEL_3" | "CARER" | "ADMIN" | "EXECUTOR" | "LOA_LEVEL_2" | "STUDENT_HOUSE" | "FRIEND_FAMILY_MEMBER")[];
            /**
             * @default
             * @enum {string|null}
             */
            pronouns: "OTHER" | "E_EM_EIR" | "EY_EM_EIR" | "FAE_FAER_FAERS" | "HE_HIM_HIS" | "PER_PER_PERS" | "SHE_HER_HERS" | "THEY_THEM_THEIRS" | "VE_VER_VIS" | "XE_XEM_XYR" | "ZE_HIR_HIRS" | "ZE_ZIR_ZIRS" | "ZIE_HIR_HIRS" | "ZIE_ZIR_ZIRS" | "" | null;
            /** @description Priority Services Register needs. */
            psr?: components["schemas"]["Psr"][];
            /**
             * @description Deprecated: use portfolio_roles.
             * @enum {string|null}
             */
            role?: "POWER_OF_ATTORNEY" | "NEIGHBOUR" | "LOA_LEVEL_1" | "LOA_LEVEL_3" | "CARER" | "ADMIN" | "EXECUTOR" | "LOA_LEVEL_2" | "STUDENT_HOUSE" | "FRIEND_FAMILY_MEMBER" | null;
            /** @default  */
            salutation: string | null;
            /** @default  */
            title: string | null;
            /** @default false */
            unable_to_read_meters: boolean;
            /** @description Namespaced identifiers of the person. */
            user_details?: components["schemas"]["UserDetail"][];
            /** @description Key other parts of the payload use to refer to this customer. */
            user_identifier?: string;
        };
        /** @description Deprecated: use consents. Marketing preferences. */
        CustomerPreferences: {
            is_user_psr_consent_obtained?: boolean | null;
            /** @default false */
            opted_into_associated_companies: boolean;
            /** @default false */
            opted_into_offers: boolean;
            /** @default true */
            opted_into_recommended: boolean;
            /** @default false */
            opted_into_sms: boolean;
            /** @default false */
            opted_into_third_parties: boolean;
            /** @default false */
            opted_into_updates: boolean;
            /** @default false */
            opted_into_whatsapp: boolean;
            /** @default  */
            partner_password: string;
        };
        Debt: {
            aged_debt?: components["schemas"]["AgedDebt"][];
            /** @description Required when start_date is given. */
            agency_name?: string;
            cais_reference?: string;
            campaign?: string;
            /** @default false */
            is_insolvent: boolean;
            notes?: string;
            /** Format: date */
            start_date?: string;
        };
        DepositAgreement: {
            /** Format: date-time */
            accepted_at?: string | null;
            deposit_amount: string | number;
            /** Format: date-time */
            fulfilled_at?: string | null;
            /**
             * Format: date
             * @description Only when fulfilled; not before fulfilled_at.
             */
            last_interest_date?: string | null;
            reason: string;
        };
        Detail: {
            /** @enum {string} */
            key: "sic_codes" | "vat_number" | "registered_charity_number" | "ofgem_protection_label";
            /** @description Type must match the registered key. */
            value: string | number | boolean | {
                [key: string]: unknown;
            } | unknown[];
        };
        DocumentPath: {
            /**
             * Format: document-path
             * @description Path of an uploaded file, relative to the supplier document root.
             */
            document_path: string;
        };
        DunningPath: {
            /**
             * Format: dunning-path-name
             * @description A dunning path of the instance.
             */
            path_name: string;
            /** Format: date */
            start_date?: string;
        };
        EacHistory: {
            /** @description kWh. */
            consumption: string | number;
            /** Format: date */
            effective_from: string;
            /** @description For example D0019. */
            source?: string;
            /** @description Matched to the registers’ TPRs. */
            tpr: string;
        };
        ElectricityMeterPoint: {
            /** @description Agent contracts; not together with dc_to_appoint / mop_to_appoint. */
            agents?: {
                da_contract?: {
                    /** Format: market-participant-id */
                    agent_mpid?: string | null;
                    contract_reference?: string;
                    is_amr?: boolean;
                    is_customer_appointed?: boolean;
                    service_level_reference?: string;
                    service_reference?: string;
                } | null;
                dc_contract?: {
                    /** Format: market-participant-id */
                    agent_mpid?: string | null;
                    contract_reference?: string;
                    is_amr?: boolean;
                    is_customer_appointed?: boolean;
                    service_level_reference?: string;
                    service_reference?: string;
                } | null;
                mop_contract?: {
                    /** Format: market-participant-id */
                    agent_mpid?: string | null;
                    contract_reference?: string;
                    is_amr?: boolean;
                    is_customer_appointed?: boolean;
                    service_level_reference?: string;
                    service_reference?: string;
                } | null;
            } | null;
            /** @description Contiguous from the supply start date. */
            agreements?: components["schemas"]["Agreement"][];
            capacity_values?: components["schemas"]["CapacityValue"][];
            /** @description Business accounts only. */
            ccl_exemptions?: components["schemas"]["CclExemption"][];
            configuration_periods?: components["schemas"]["ConfigurationPeriod"][];
            /**
             * Format: market-participant-id
             * @description Deprecated: use agents.dc_contract.
             */
            dc_to_appoint?: string | null;
            /** @description A disputed read in progress blocks the import. */
            dr_in_progress?: boolean | null;
            eac_history?: components["schemas"]["EacHistory"][];
            /** @description An erroneous transfer in progress blocks the import. */
            et_in_progress?: boolean | null;
            /** @enum {string} */
            export_type?: "IMPORT_EXPORT" | "EXPORT_ONLY";
            /**
             * Format: mpan
             * @description The 13-digit MPAN core.
             */
            identifier: string;
            /** @default false */
            is_deenergised: boolean;
            /**
             * Format: date
             * @description Inclusive; the supply start date if never billed.
             */
            last_billed_to_date?: string;
            /**
             * @description Required for unmetered supplies.
             * @enum {string}
             */
            measurement_class?: "A" | "B" | "C" | "D" | "E" | "F" | "G";
            meters?: components["schemas"]["ElectricityMeterPointMeter"][];
            /**
             * Format: market-participant-id
             * @description Deprecated: use agents.mop_contract.
             */
            mop_to_appoint?: string | null;
            /**
             * Format: market-participant-id
             * @description Supplier MPID.
             */
            mpid: string;
            profile_class?: number;
            /** @enum {string} */
            regular_reading_cycle?: "A" | "B" | "D" | "E" | "H" | "M" | "N" | "O" | "Q" | "S" | "T" | "W" | "Z";
            smart_refusal_interest?: components["schemas"]["SmartRefusalInterest"];
            smart_site_visit?: components["schemas"]["SmartSiteVisit"][];
            ssc?: string;
            /**
             * Format: date
             * @description A future date (a loss in progress) is rejected.
             */
            supply_end_date?: string | null;
            /**
             * Format: date
             * @description A billable meter point cannot start in the future.
             */
            supply_start_date: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            supply_type: "ElectricityMeterPoint";
            /** @description Business accounts only. */
            vat_exemptions?: components["schemas"]["CclExemption"][];
        };
        ElectricityMeterPointMeter: {
            /** Format: date */
            installed_on?: string | null;
            /** @default false */
            is_prepay: boolean;
            /** Format: meter-serial-number */
            meter_serial_number: string;
            /**
             * Format: electricity-prepay-reference
             * @description Digits; spaces ignored.
             */
            prepay_customer_reference_number?: string;
            prepay_details?: components["schemas"]["PrepayDetails"];
            reading_history?: components["schemas"]["ReadingHistory"][];
            registers?: components["schemas"]["MeterRegister"][];
            /**
             * Format: date
             * @description An exchanged meter needs a reading on this date.
             */
            removed_on?: string | null;
            /**
             * Format: date
             * @description Smart meters only; not in the future.
             */
            smart_commissioned_on?: string | null;
            /**
             * Format: smart-device-id
             * @description Smart meters only, like 01-23-45-67-89-AB-CD-EF.
             */
            smart_device_id?: string | null;
            /**
             * @default NONE
             * @enum {string}
             */
            smart_type: "NONE" | "SMETS1" | "SMETS1_ENROLLED" | "SMETS2";
            transfer_readings?: components["schemas"]["MeterTransferReading"][];
        };
        Error: {
            /** @description Machine-readable and stable. */
            code: string;
            /** @description Human-readable; do not parse. */
            detail: string;
            domain?: string;
            errors?: {
                /** @description Dot-delimited path from the payload root; numeric parts are array indexes. */
                attr: string;
                code: string;
                detail: string;
            }[];
        } & {
            [key: string]: unknown;
        };
        /** @description Feed-in Tariff generator details. */
        Fit: {
            installations: components["schemas"]["Installation"][];
            /** @description Required for BACS. */
            instruction_reference?: string;
            meters: components["schemas"]["Meter"][];
            /** @enum {string} */
            payment_method: "BACS" | "CHEQUE" | "CHAPS" | "FOREIGN_CHAPS";
            vat_number?: string;
            /**
             * @description Required for BACS.
             * @enum {string}
             */
            vendor_name?: "STRIPE" | "BOTTOMLINE_GLOBAL_PAYMENTS_HUB" | "BOTTOMLINE_PTX" | "BOTTOMLINE_PTX_BATCHED";
        };
        GasDebtRepaymentOptions: {
            /** @description Pounds. */
            weekly_max?: string | number;
            /** @description Pounds. */
            weekly_min?: string | number;
        };
        GasMeterPoint: {
            /** @description Contiguous from the supply start date. */
            agreements?: components["schemas"]["GasMeterPointAgreement"][];
            /** @description Contiguous; at most one open-ended entry. */
            aq_history?: components["schemas"]["AqHistory"][];
            /** @description Business accounts only. */
            ccl_exemptions?: components["schemas"]["CclExemption"][];
            /** @description A disputed read in progress blocks the import. */
            dr_in_progress?: boolean | null;
            /** @description An erroneous transfer in progress blocks the import. */
            et_in_progress?: boolean | null;
            /**
             * Format: mprn
             * @description The MPRN.
             */
            identifier: string;
            /**
             * Format: date
             * @description Inclusive; the supply start date if never billed.
             */
            last_billed_to_date?: string;
            /** @enum {string} */
            ldz?: "SC" | "LC" | "LO" | "LS" | "LT" | "LW" | "NO" | "NE" | "NW" | "WM" | "EM" | "EA" | "WN" | "WS" | "NT" | "SO" | "SE" | "SW" | "";
            /**
             * Format: market-participant-id
             * @description Meter asset manager to appoint.
             */
            mam_to_appoint?: string | null;
            meters?: components["schemas"]["GasMeterPointMeter"][];
            /**
             * Format: market-participant-id
             * @description Supplier id.
             */
            mpid: string;
            /** @enum {string} */
            regular_reading_cycle?: "CYYY" | "CYSS" | "CYQS" | "CYLM" | "CYSM" | "CYNM";
            /**
             * Format: market-participant-id
             * @description Shipper id.
             */
            shipper_mpid: string;
            smart_refusal_interest?: components["schemas"]["SmartRefusalInterest"];
            smart_site_visit?: components["schemas"]["SmartSiteVisit"][];
            /**
             * Format: date
             * @description A future date (a loss in progress) is rejected.
             */
            supply_end_date?: string | null;
            /**
             * Format: date
             * @description A billable meter point cannot start in the future.
             */
            supply_start_date: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            supply_type: "GasMeterPoint";
            /** @description Business accounts only. */
            vat_exemptions?: components["schemas"]["CclExemption"][];
        };
        GasMeterPointAgreement: {
            /** Format: date-time */
            agreed_at?: string | null;
            /** @description Business accounts only. */
            bespoke_tariff_rates?: components["schemas"]["AgreementBespokeTariffRate"][];
            /** @description One of business.business_contract_identifiers. */
            business_contract_identifier?: string | null;
            /** @description Each code at most once. */
            characteristics?: (components["schemas"]["SalesChannelCharacteristic"] | components["schemas"]["GbrElectricityPaymentMethodCharacteristic"] | components["schemas"]["GbrElectricityMeterRateProfileCharacteristic"] | components["schemas"]["GbrGasMeterPointGridSupplyPointEquivalentCharacteristic"] | components["schemas"]["GbrGasPaymentMethodCharacteristic"])[] | null;
            /**
             * Format: date
             * @description Inclusive; not before the supply start date.
             */
            effective_from: string;
            /**
             * Format: date
             * @description Exclusive; omit for open-ended.
             */
            effective_to?: string | null;
            intermediary?: {
                external_id?: string | null;
                /**
                 * Format: portfolio-number
                 * @description "P-" and 8 capitals or digits.
                 */
                portfolio_number: string;
            } | null;
            rate_overrides?: components["schemas"]["RateOverride"][] | null;
            /** Format: date-time */
            rates_agreed_at?: string | null;
            /**
             * Format: tariff-code
             * @description Code of an existing tariff.
             */
            tariff_code: string;
        };
        GasMeterPointMeter: {
            gas_number_of_digits: number;
            /** Format: date */
            installed_on?: string | null;
            /** @default false */
            is_prepay: boolean;
            /**
             * Format: date
             * @description Here or on the account, unless the meter is off supply.
             */
            last_billed_to_date?: string;
            /** Format: meter-serial-number */
            meter_serial_number: string;
            prepay_customer_reference_number?: string;
            prepay_details?: components["schemas"]["MeterPrepayDetails"];
            reading_history?: components["schemas"]["ReadingHistory"][];
            /**
             * Format: date
             * @description An exchanged meter needs a reading on this date.
             */
            removed_on?: string | null;
            /**
             * Format: date
             * @description Smart meters only; not in the future.
             */
            smart_commissioned_on?: string | null;
            /**
             * Format: smart-device-id
             * @description Smart meters only, like 01-23-45-67-89-AB-CD-EF.
             */
            smart_device_id?: string | null;
            /**
             * @default NONE
             * @enum {string}
             */
            smart_type: "NONE" | "SMETS1" | "SMETS1_ENROLLED" | "SMETS2";
            transfer_readings?: components["schemas"]["MeterTransferReading"][];
            /**
             * @default SCMH
             * @enum {string}
             */
            units_of_measure: "SCFH" | "SCMH";
        };
        GbrElectricityMeterRateProfileCharacteristic: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            code: "GbrElectricityMeterRateProfileCharacteristic";
            /** @enum {string} */
            value: "flat_rate" | "multi_rate";
        };
        GbrElectricityPaymentMethodCharacteristic: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            code: "GbrElectricityPaymentMethodCharacteristic";
            /** @enum {string} */
            value: "NON_DIRECT_DEBIT" | "PREPAYMENT" | "DIRECT_DEBIT";
        };
        GbrGasMeterPointGridSupplyPointEquivalentCharacteristic: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            code: "GbrGasMeterPointGridSupplyPointEquivalentCharacteristic";
            /** @enum {string} */
            value: "_E" | "_H" | "_D" | "_M" | "_A" | "_F" | "_K" | "_P" | "_C" | "_L" | "_N" | "_B" | "_J" | "_G";
        };
        GbrGasPaymentMethodCharacteristic: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            code: "GbrGasPaymentMethodCharacteristic";
            /** @enum {string} */
            value: "NON_DIRECT_DEBIT" | "PREPAYMENT" | "DIRECT_DEBIT";
        };
        Installation: {
            address?: components["schemas"]["Address"];
            credit_hold?: components["schemas"]["CreditHold"];
            fit_id: string;
            non_eligible_extensions?: components["schemas"]["NonEligibleExtension"][];
        };
        Instalment: {
            amount: string | number;
            /**
             * Format: date
             * @description Inside the schedule’s period.
             */
            payment_date: string;
            /** @enum {string} */
            payment_type?: "";
        };
        InstructionReferenceParams: {
            /** @enum {string} */
            vendor_name: "STRIPE" | "BOTTOMLINE_GLOBAL_PAYMENTS_HUB" | "BOTTOMLINE_PTX" | "BOTTOMLINE_PTX_BATCHED";
            vendor_reference: string;
        };
        Ledger: {
            /** @description Unbilled transactions; with last_statement_balance they make up ledger_balance. */
            current_statement_transactions?: (components["schemas"]["CreditCurrentStatementTransaction"] | components["schemas"]["ChargeCurrentStatementTransaction"] | components["schemas"]["PaymentCurrentStatementTransaction"] | components["schemas"]["RepaymentCurrentStatementTransaction"] | components["schemas"]["SupplyChargeCurrentStatementTransaction"])[];
            /** @description Already billed; they sum to last_statement_balance. */
            historical_statement_transactions?: (components["schemas"]["CreditCurrentStatementTransaction"] | components["schemas"]["ChargeCurrentStatementTransaction"] | components["schemas"]["PaymentCurrentStatementTransaction"] | components["schemas"]["RepaymentCurrentStatementTransaction"] | components["schemas"]["SupplyChargeCurrentStatementTransaction"])[];
            /** @description MPxNs of the supply points this ledger covers. */
            identifiers?: string[];
            /** @description Pounds; credit positive, debit negative. */
            last_statement_balance?: string | number;
            /**
             * Format: date
             * @description Historical transactions on or before it, current ones after it.
             */
            last_statement_closing_date?: string;
            /**
             * Format: date
             * @description On or after the closing date.
             */
            last_statement_issue_date?: string;
            /** @description Pounds; ledger balances sum to transfer_balance. */
            ledger_balance?: string | number;
            /**
             * Format: ledger-code
             * @description Ledger type code.
             */
            ledger_code?: string;
            /** @description Key other parts of the payload use to refer to this ledger. */
            ledger_identifier?: string;
        };
        LineItem: {
            /**
             * Format: date
             * @description Inclusive; not before start_date.
             */
            end_date: string;
            external_rate_identifier?: string;
            /** @description price_per_unit × number_of_units, in pounds. */
            net_amount: string | number;
            number_of_units: string | number;
            params?: {
                [key: string]: unknown;
            };
            price_per_unit?: string | number;
            /** @description Exactly one of rate_band, rate_specification_code, time_series_specification_code. */
            rate_band?: string;
            rate_specification_code?: string;
            /**
             * Format: date
             * @description Inclusive.
             */
            start_date: string;
            time_series_specification_code?: string;
            /** @description Metered line items only: exactly two values. */
            units?: (string | number)[];
        };
        Metadata: {
            /** @description Unique within its list. */
            key: string;
            /** @description Any JSON value; stored as given. */
            value: string | number | boolean | {
                [key: string]: unknown;
            } | unknown[];
        };
        Meter: {
            extensions: string[];
            /** Format: date */
            last_billed_to_date: string;
            make?: string;
            model?: string;
            /**
             * Format: mpan
             * @description MPAN core; export and generation meters may omit it.
             */
            mpan?: string;
            serial_number: string;
            transfer_reading: components["schemas"]["TransferReading"];
            /** @enum {string} */
            type: "EXPORT" | "SUPPLY" | "GENERATION";
        };
        /** @description Prepay meters only. */
        MeterPrepayDetails: {
            /** @description Pounds, at the last statement closing. */
            credit_balance: string | number;
            /** @description Pounds. */
            debt_balance: string | number;
            gas_debt_repayment_options?: components["schemas"]["GasDebtRepaymentOptions"];
            /**
             * Format: date
             * @description The last billed to date or the day before it.
             */
            transfer_vend_read_date: string;
        };
        MeterRegister: {
            /** @description Settlement registers need a transfer reading, an EAC and a last billed date. */
            is_settlement?: boolean;
            /** Format: date */
            last_billed_to_date?: string;
            number_of_digits: number;
            /** @description As in the MTDs, leading zeros kept. */
            register_id: string;
            /**
             * Format: tpr
             * @description Five-digit time pattern regime.
             */
            tpr?: string;
        };
        MeterTransferReading: {
            /**
             * Format: date
             * @description Equals the last billed to date that applies to the meter.
             */
            reading_date: string;
            /** @enum {string} */
            reading_type: "CUSTOMER" | "ESTIMATE" | "ROUTINE" | "SMART" | "REGULAR";
            reading_value: string | number;
            /** @description Electricity: required, a register of the meter. */
            register_id?: string;
        };
        NonEligibleExtension: {
            installed_capacity?: string | number;
            reference_number: number;
        };
        Note: {
            /** @description Note text; a note needs a body or document paths. */
            body?: string;
            /** Format: date-time */
            created_at?: string;
            document_paths?: components["schemas"]["DocumentPath"][];
            /** @description Source-system id, used to de-duplicate notes. */
            external_id?: string;
            is_archived?: boolean;
            is_pinned?: boolean;
            /**
             * Format: date-time
             * @description Not earlier than created_at.
             */
            unpin_at?: string;
        };
        PartnerOrganisation: {
            /** @description A registered organisation. */
            organisation_number: string;
            /** @description Role as configured for the instance. */
            role: string;
            source_reference_s3_key?: string;
            /** Format: date-time */
            valid_from: string;
            /**
             * Format: date-time
             * @description Not before valid_from.
             */
            valid_to: string;
        };
        PassivePaymentPreference: {
            /** @description ledger_identifier of one of the payload’s ledgers. */
            ledger_identifier: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "PassivePaymentPreference";
        };
        Payment: {
            /** @description Amounts sum to total_amount. */
            amount_components: components["schemas"]["AmountComponent"][];
            /** Format: date */
            payment_date: string;
            total_amount: number;
        };
        PaymentAdequacyChange: {
            /**
             * Format: date-time
             * @description After created_at; not with should_not_be_applied_reason.
             */
            applied_at?: string | null;
            /** @description The electricity plus the gas average. */
            average_monthly_charge: number;
            average_monthly_elec_charge: number;
            average_monthly_gas_charge: number;
            /** @description If not zero, the monthly gap between target and current balance. */
            balance_adjustment: number;
            /**
             * Format: date-time
             * @description Not in the future.
             */
            created_at: string;
            current_balance: number;
            existing_direct_debit_payment: number;
            ledger?: components["schemas"]["PaymentAdequacyChangeLedger"];
            /** @description Between the existing payment and charge plus adjustment. */
            new_direct_debit: number;
            /** @description Required when not applied. */
            should_not_be_applied_reason?: string | null;
            target_balance: number;
        };
        PaymentAdequacyChangeLedger: {
            /** Format: ledger-code */
            ledger_code: string;
            ledger_identifier?: string;
        };
        PaymentCurrentStatementTransaction: {
            /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
            amount: string | number;
            /** @description Historical statement transactions only. */
            billing_document_identifier?: string;
            display_note?: string;
            note?: string;
            /** @enum {string} */
            payment_type?: "DD_FIRST_COLLECTION" | "DD_REGULAR_COLLECTION" | "DD_RE_PRESENTATION" | "DD_FINAL_COLLECTION" | "CREDIT_CARD" | "DEBIT_CARD" | "CHEQUE" | "BACS_DEPOSIT" | "ALLPAY_CASH" | "ALLPAY_CARD" | "ALLPAY_CHEQUE" | "PAYPOINT_CASH" | "PAYPOINT_CARD" | "PAYPOINT_CHEQUE" | "DCA_COLLECTION" | "BRISTOL_POUND" | "CASH" | "FUEL_DIRECT" | "BPAY" | "AUSTRALIA_POST" | "HEEA" | "HEEAS" | "CENTREPAY" | "EAPA_VOUCHER" | "URGS" | "BPOINT" | "EFT" | "ERRONEOUS_PAYMENT" | "PAYZONE" | "POST_OFFICE_CASH" | "POST_OFFICE_CARD" | "POST_OFFICE_CHEQUE" | "POST_OFFICE_SAVINGS_STAMPS" | "KONBINI" | "";
            /** @enum {string} */
            reason?: "ACCOUNT_CHARGE_PAYMENT" | "BALANCE_ADJUSTMENT" | "GENERAL_CREDIT" | "SSD_PAYMENT" | "DEBT_REPAYMENT" | "PREPAY_RECORD" | "DEPOSIT" | "SETTLEMENT" | "BALANCE_THRESHOLD_CROSSED" | "BILL_ISSUED" | "PAYMENT_PLAN" | "REGULAR_SCHEDULE" | "REPAYMENT_CORRECTION" | "";
            reference?: string;
            /** @description Vend to a prepay meter; must match a meter with prepay_details. */
            to_prepay_meter_serial_number?: string;
            /**
             * Format: date
             * @description Not in the future.
             */
            transaction_date: string;
            /** @description Unique across all transactions of the payload. At most 128 characters. */
            transaction_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "PaymentCurrentStatementTransaction";
        };
        PaymentInstruction: {
            customer_reference?: string;
            /** @description Key ACTIVE_NEW payment preferences refer to. */
            instruction_identifier?: string;
            /**
             * Format: ledger-code
             * @description On every instruction or on none.
             */
            ledger_code?: string;
            /** @description The vendor’s reference, e.g. a mandate id. */
            reference: string;
            /** @enum {string} */
            type: "BPAY" | "CARD" | "CUSTOM" | "DIRECT_DEBIT" | "GMO_REFUND" | "PAYMENT_SLIP";
            use_for_scheduled_payments?: boolean;
            /** Format: date */
            valid_from?: string | null;
            /** @enum {string} */
            vendor: "STRIPE" | "BOTTOMLINE_GLOBAL_PAYMENTS_HUB" | "BOTTOMLINE_PTX" | "BOTTOMLINE_PTX_BATCHED";
        };
        PaymentInstructionError: {
            /** @description Machine-readable and stable. */
            code: string;
            /** @description Human-readable; do not parse. */
            detail: string;
            domain?: string;
            /** @description The same text as detail (the real deployment’s key). */
            error_detail: string;
            errors?: {
                /** @description Dot-delimited path from the payload root; numeric parts are array indexes. */
                attr: string;
                code: string;
                detail: string;
            }[];
            /** @description As in the request; "" when it had none. */
            external_account_number: string;
            /** @description As in the request; "" when it had none. */
            import_supplier: string;
            /** @description As in the request; "" when it had none. */
            reference: string;
        } & {
            [key: string]: unknown;
        };
        PaymentPlan: {
            /** Format: date-time */
            accepted_at: string;
            /** @description Each (payment date, component type) once. */
            payments: components["schemas"]["Payment"][];
            /** @enum {string} */
            schedule_means: "DD" | "CARD" | "MANUAL" | "PAYMENT_SLIP";
            /** @description An existing payment plan strategy. */
            strategy_name: string;
        };
        PaymentPromise: {
            amount: string | number;
            /** Format: ledger-code */
            ledger_code?: string;
            /** Format: date */
            payment_date: string;
        };
        PaymentSchedule: {
            /**
             * @description Not zero for schedules not triggered by bills.
             * @default 0.00
             */
            amount: string | number;
            /** @description Required for BALANCE-triggered schedules. */
            balance_threshold?: string | number;
            /** @description Payment day, 1 to 28; required for REGULAR schedules. */
            day_of_month?: number | null;
            /** @description Needs debt_repayment_end_date. */
            debt_repayment_element?: string | number;
            /**
             * Format: date
             * @description Not after end_date.
             */
            debt_repayment_end_date?: string;
            /** @description Required with delay_strategy; BILL trigger only. */
            delay_days?: number;
            /** @enum {string} */
            delay_strategy?: "FIXED" | "WORKING_DAYS";
            /**
             * Format: date
             * @description Not before start_date; omit for open-ended.
             */
            end_date?: string | null;
            /**
             * @description REGULAR schedules only.
             * @default false
             */
            exempt_from_payment_adequacy: boolean;
            /** @enum {string} */
            frequency?: "MONTHLY" | "QUARTERLY" | "WEEKLY" | "FORTNIGHTLY" | "FOUR_WEEKLY" | "ANNUALLY" | "SIX_MONTHLY";
            /** @description Required for PLAN; they sum to amount. */
            instalments?: components["schemas"]["Instalment"][];
            /** @default false */
            is_debt_repayment_plan: boolean;
            /**
             * Format: ledger-code
             * @description On every schedule or on none.
             */
            ledger_code?: string;
            /** @enum {string} */
            means: "DD" | "CARD" | "MANUAL" | "PAYMENT_SLIP";
            /**
             * @default CUSTOMER
             * @enum {string}
             */
            paid_by: "CUSTOMER" | "FUEL_DIRECT";
            /** Format: date */
            start_date: string;
            /**
             * @description Omitted means REGULAR.
             * @enum {string}
             */
            trigger?: "PLAN" | "REGULAR" | "REGULAR_PLAN" | "BALANCE" | "BILL";
        };
        Period: {
            /**
             * Format: date
             * @description Exclusive; not before start_date.
             */
            end_date: string;
            /** Format: date-time */
            fulfilled_at?: string | null;
            /**
             * Format: date
             * @description Inclusive.
             */
            start_date: string;
        };
        Portfolio: {
            billing_name?: string;
            notes?: components["schemas"]["Note"][];
            portfolio_references: components["schemas"]["PortfolioReference"][];
            /** @description Only on a portfolio lead account. */
            portfolio_settings?: {
                /** @default false */
                collective_billing: boolean;
                /** @default false */
                collective_payments: boolean;
                /** @default false */
                delegate_billing_schedule_to_children: boolean;
                /** @default false */
                send_collective_bill_constituent_messages: boolean;
            } | null;
        };
        PortfolioReference: {
            /** @enum {string} */
            namespace: "external-portfolio-reference-id" | "portfolio-label";
            value: string;
        };
        /** @description Prepay meters only. */
        PrepayDetails: {
            /** @description Pounds, at the last statement closing. */
            credit_balance: string | number;
            /** @description Pounds. */
            debt_balance: string | number;
            /**
             * Format: date
             * @description The last billed to date or the day before it.
             */
            transfer_vend_read_date: string;
        };
        PropertyAdministrator: {
            /** @description Deprecated. */
            address1?: string;
            /** @description Deprecated. */
            address2?: string;
            /** @description Deprecated. */
            address3?: string;
            /** @description Deprecated. */
            address4?: string;
            /** @description Deprecated. */
            address5?: string;
            /** @default  */
            billing_name: string;
            /** Format: date */
            date_of_birth?: string | null;
            /**
             * @default
             * @enum {string}
             */
            deceased: "Reported" | "Confirmed" | "";
            /**
             * Format: date-time
             * @description Inclusive.
             */
            effective_from?: string | null;
            /**
             * Format: date-time
             * @description Exclusive; not before effective_from.
             */
            effective_to?: string | null;
            /** Format: email */
            email?: string | null;
            /** @default  */
            family_name: string;
            /** @default  */
            given_name: string | null;
            /**
             * Format: phone-number
             * @description Landline number.
             * @default
             */
            landline: string | null;
            /**
             * Format: phone-number
             * @description Mobile number.
             * @default
             */
            mobile: string | null;
            /** @description Deprecated. */
            postcode?: string;
            /**
             * @default LANDLORD
             * @enum {string}
             */
            role: "LANDLORD" | "PROPERTY_DEVELOPER";
            /** @default  */
            salutation: string | null;
            /** @default  */
            title: string | null;
        };
        Psr: {
            /** @default  */
            additional_information: string | null;
            /**
             * @description A known PSR category description.
             * @default
             */
            description: string | null;
            /**
             * Format: date-or-date-time
             * @description A date or a date-time.
             */
            effective_from?: string;
            /**
             * Format: date-time
             * @description Required for temporary PSR categories.
             */
            effective_to?: string | null;
            /**
             * Format: psr-industry-code
             * @description Two-digit J1699 needs code.
             * @default
             */
            elec_industry_code: string | null;
            /**
             * Format: psr-industry-code
             * @description Two-digit J1699 needs code.
             * @default
             */
            gas_industry_code: string | null;
        };
        RateOverride: {
            rate_band: string;
            unit_price: string | number;
        };
        ReadingHistory: {
            /** @description Billed readings may not be after the last billed to date. */
            billed: boolean;
            /** Format: date */
            reading_date: string;
            /** @enum {string} */
            reading_type: "CUSTOMER" | "ESTIMATE" | "ROUTINE" | "SMART" | "REGULAR";
            reading_value: string | number;
            /** @description Electricity: a register of the meter. */
            register_id?: string;
            /**
             * @default VALIDATED
             * @enum {string}
             */
            validation_status: "VALIDATED" | "UNVALIDATED" | "FAILED";
        };
        Reference: {
            /** Format: reference-namespace */
            namespace: string;
            /** @description Not already used on any account. */
            value: string;
        };
        Register: {
            /**
             * @description Required when register_id is absent.
             * @enum {string}
             */
            rate_type?: "STANDARD" | "ECO7_DAY" | "ECO7_NIGHT" | "OFF_PEAK" | "PEAK" | "WEEKDAY" | "OFF_PEAK_WEEKENDS" | "WEEKENDS_OTHER" | "SUMMER" | "SUMMER_PEAK" | "SUMMER_OFF_PEAK" | "WINTER" | "WINTER_PEAK" | "WINTER_OFF_PEAK" | "NUCLEAR_RAB" | "SUMMER_WEEKENDS_OFF_PEAK_WINTER" | "TNUOS" | "CAPACITY_MARKET" | "HMC_GUARANTEE_ADVANCE" | "HMC_GUARANTEE_FULL" | "EV_DEVICE" | "EV_DEVICE_PEAK" | "EV_DEVICE_OFF_PEAK";
            /** @description Required when rate_type is absent. */
            register_id?: string;
            /**
             * Format: time
             * @description Time of day, HH:MM[:SS].
             */
            start_time?: string;
            /** @description Pence per kWh, excluding VAT. */
            unit_rate: string | number;
        };
        RepaymentCurrentStatementTransaction: {
            /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
            amount: string | number;
            /** @description Historical statement transactions only. */
            billing_document_identifier?: string;
            display_note?: string;
            note?: string;
            /** @enum {string} */
            payment_type?: "DIRECT_CREDIT" | "CARD_REFUND" | "BACS" | "CHEQUE" | "BPAY" | "";
            /** @enum {string} */
            reason?: "FULL_CREDIT_REFUND" | "PARTIAL_CREDIT_REFUND" | "FULL_PREPAYMENT_REFUND" | "PARTIAL_REPAYMENT_REFUND" | "ET_REFUND" | "GENERATOR_ACCOUNT_REFUND" | "DOMESTIC_EXPORT_ONLY_REPAYMENT" | "FINAL_BALANCE_SETTLEMENT" | "MISTAKEN_PAYMENT_TAKEN" | "PAYMENT_CORRECTION" | "COMPLAINT_COMPENSATION" | "INDEMNITY_CLAIM" | "FAILED_PAYMENT" | "FEED_IN_TARIFF_PAYMENT" | "GSOS_PAYMENT" | "SEG_PAYMENT" | "DEPOSIT_RETURN" | "LATE_FAILED_PAYMENT" | "CANCELED_BILL" | "BILLING_ADJUSTMENT" | "ETF_CREDIT" | "FAST_TRACK" | "CHARGEBACK" | "";
            reference?: string;
            /** @description Vend to a prepay meter; must match a meter with prepay_details. */
            to_prepay_meter_serial_number?: string;
            /**
             * Format: date
             * @description Not in the future.
             */
            transaction_date: string;
            /** @description Unique across all transactions of the payload. At most 128 characters. */
            transaction_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "RepaymentCurrentStatementTransaction";
        };
        SalesChannelCharacteristic: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            code: "SalesChannelCharacteristic";
            /** @enum {string} */
            value: "PARTNERSHIPS" | "NEW_TENANT" | "MOVE_IN" | "DIRECT" | "DEBT_COLLECTION_AGENCY" | "DIGI_TELESALES" | "LANDLORD" | "ACQUISITION" | "TELESALES" | "FIELD_SALES" | "HIGH_REFERRER" | "WORKS_WITH_OCTOPUS" | "PARENT_POWER" | "WORKPLACE_POP_UP" | "GIFT_OF_KIT" | "PEOPLE_POWER" | "AGGREGATOR" | "PRICE_COMPARISON" | "SUPPLIER_OF_LAST_RESORT" | "EVENTS" | "BROKER";
        };
        SmartRefusalInterest: {
            /** Format: date */
            date: string;
            /**
             * @description Not when type is INTERESTED.
             * @enum {string}
             */
            refusal_reason?: "DO_NOT_OWN_HOME" | "TECHNOLOGY_SCEPTICAL" | "WORRIED_SECURITY" | "WORRIED_HEALTH_SAFETY" | "NEGATIVE_PUBLICITY" | "WORRIED_ABOUT_USAGE_COST" | "ALREADY_HAS_SMART_METER" | "HOUSE_MOVE_IMMINENT" | "SWITCH_IMMINENT" | "MORE_INFORMATION_REQUIRED" | "IS_LANDLORD" | "CANNOT_SEE_BENEFIT" | "WAIT_UNTIL_IT_IS_COMPULSORY" | "VULNERABILITY" | "WORRIED_ABOUT_SMART_METERS" | "WORRIED_ABOUT_INSTALLATION" | "PROPERTY_NOT_OCCUPIED" | "CANNOT_ATTEND_APPOINTMENT";
            /** @enum {string} */
            source?: "WEBSITE" | "EMAIL" | "OTHER";
            /** @enum {string} */
            type: "NOT_INTERESTED" | "INTERESTED" | "NOT_AT_THE_MOMENT";
        };
        SmartSiteVisit: {
            additional_data?: string | number | boolean | {
                [key: string]: unknown;
            } | unknown[];
            appointment_notes?: string;
            /** Format: date */
            date: string;
            /** @enum {string} */
            metering_agent: "GENERIC_AGENT" | "TTE_FACILITA" | "SMS" | "AES" | "OES" | "PROVIDOR" | "MDS" | "EON_METERING" | "LOWRI_BECK" | "METERPLUS" | "ENTERPRISE_MANAGED" | "MIDS_ELEC" | "N_POWERGRID" | "ELEC_NW" | "NATIONAL_GRID" | "SGN" | "ENERGY_ASSETS" | "SIEMENS" | "LONDON" | "SWEB" | "ECM" | "OESL" | "EDF_FIELD" | "ESSENTIAL_FIELD" | "ESSENTIAL_WATER_FIELD" | "IFS" | "SAP";
            reference_number: string;
            /** @enum {string} */
            status: "CANCELLED" | "ABORTED" | "SUCCESSFUL";
            /** @enum {string} */
            work_category: "IHD_INSTALL" | "NEW_CONNECTION" | "REMOVE" | "EXCHANGE" | "OTHER" | "MOVE" | "CONFIRM_METER_DETAILS" | "ENERGISE" | "DE_ENERGISE" | "INVESTIGATE_FAULT";
        };
        Statement: {
            /**
             * Format: date
             * @description Inclusive.
             */
            bill_period_from_date: string;
            /**
             * Format: date
             * @description Inclusive; not before the from date.
             */
            bill_period_to_date: string;
            /** @description Pence. */
            gross_amount?: number | null;
            /** Format: date */
            issued_date?: string | null;
            number?: string;
            statement_id: string;
            /**
             * Format: document-path
             * @description PDF path, relative to the document root.
             */
            statement_path?: string;
        };
        SupplyAddress: {
            /** Format: date */
            customer_at_supply_address_from_date: string;
            /**
             * Format: date
             * @description Set for a former address, which must be fully billed.
             */
            customer_at_supply_address_to_date?: string | null;
            /** @default false */
            is_landlord: boolean;
            label?: string;
            metadata?: components["schemas"]["Metadata"][];
            /** @description MPxNs unique across the payload. */
            meter_points: (components["schemas"]["ElectricityMeterPoint"] | components["schemas"]["GasMeterPoint"])[];
            /** Format: date */
            primary_place_of_residence_since?: string;
            /** @description At most one. */
            property_administrators?: components["schemas"]["PropertyAdministrator"][];
            /** @description Unique across supply addresses. */
            property_external_identifier?: string;
            supply_address1: string;
            supply_address2?: string;
            supply_address3?: string;
            supply_address4?: string;
            supply_address5?: string;
            /**
             * Format: delivery-point-identifier
             * @description UPRN: capitals and digits.
             */
            supply_delivery_point_identifier?: string;
            /**
             * Format: gb-postcode
             * @description Normalised to AA9A 9AA form.
             */
            supply_postcode: string;
        };
        SupplyChargeCurrentStatementTransaction: {
            /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
            amount: string | number;
            /** @description Historical statement transactions only. */
            billing_document_identifier?: string;
            display_note?: string;
            /** @description Their net amounts plus tax make up the amount. */
            line_items: components["schemas"]["LineItem"][];
            note?: string;
            /** Format: product-code */
            product_code: string;
            reference?: string;
            /** @description Required when a line item uses rate_specification_code. */
            supply_point_identifier?: string;
            tax_items?: components["schemas"]["TaxItem"][];
            /** @description Vend to a prepay meter; must match a meter with prepay_details. */
            to_prepay_meter_serial_number?: string;
            /**
             * Format: date
             * @description Not in the future.
             */
            transaction_date: string;
            /** @description Unique across all transactions of the payload. At most 128 characters. */
            transaction_id: string;
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "SupplyChargeCurrentStatementTransaction";
        };
        TaxItem: {
            /** @description Tax amount in pounds. */
            amount: string | number;
            params?: {
                [key: string]: unknown;
            };
            rate: string | number;
            tax_type: string;
            /** @enum {string} */
            unit_type: "PROPORTION" | "CURRENCY_PER_KWH";
            value_taxed: string | number;
        };
        TransactionImportError: {
            /** @description transaction_in_future, transaction_outside_open_statement_period, ... */
            code: string;
            error_detail: string;
            /** @enum {string} */
            status: "TRANSACTION_IMPORT_ERROR";
            /** @description The transaction as sent. */
            transaction_data: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        TransferReading: {
            /** Format: date */
            reading_date: string;
            /** @description kWh. */
            reading_value: string | number;
        };
        User: {
            alternative_phone_numbers?: components["schemas"]["AlternativePhoneNumber"][];
            business_roles: ("POWER_OF_ATTORNEY" | "NEIGHBOUR" | "LOA_LEVEL_1" | "LOA_LEVEL_3" | "CARER" | "ADMIN" | "EXECUTOR" | "LOA_LEVEL_2" | "STUDENT_HOUSE" | "FRIEND_FAMILY_MEMBER")[];
            /** @description Extra e-mail addresses. */
            contact_emails?: string[];
            credit_assessment_id?: string | null;
            credit_result?: string | null;
            /** @enum {string|null} */
            credit_risk_bracket?: "LOW" | "MID" | "HIGH" | "UNKNOWN" | "" | null;
            credit_score?: number | null;
            /** Format: date */
            date_of_birth?: string | null;
            /**
             * @default
             * @enum {string}
             */
            deceased: "Reported" | "Confirmed" | "";
            /** @description Deprecated: use user_details. */
            details?: unknown;
            /**
             * Format: customer-email
             * @description Test-looking addresses are rejected.
             */
            email?: string | null;
            /** @default  */
            family_name: string;
            /** @default  */
            given_name: string;
            label?: string | null;
            /**
             * Format: phone-number
             * @description Landline number.
             * @default
             */
            landline: string | null;
            /**
             * Format: phone-number
             * @description Mobile number.
             * @default
             */
            mobile: string | null;
            /** @default  */
            salutation: string | null;
            /** @default  */
            title: string | null;
            /** @default false */
            unable_to_read_meters: boolean;
            /** @description Namespaced identifiers of the person. */
            user_details?: components["schemas"]["UserDetail"][];
        };
        UserDetail: {
            /** @enum {string} */
            namespace: "external_user_id";
            value: string | number | boolean | {
                [key: string]: unknown;
            } | unknown[];
        };
        WarmHomeDiscount: {
            /**
             * @default CREDIT
             * @enum {string}
             */
            account_type: "CREDIT" | "PREPAY";
            /**
             * @default CORE
             * @enum {string}
             */
            group: "CORE" | "BROADER";
            /**
             * Format: tax-year
             * @description YYYY/YY, e.g. 2018/19.
             */
            tax_year?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    adminListApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        /** Format: date-time */
                        created_at: string;
                        id: string;
                        /** @description Supplier codes, or ["*"] for all. */
                        import_suppliers: string[];
                        name: string;
                        revoked_at: string | null;
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
        };
    };
    adminCreateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Supplier codes this key may act for, or ["*"] for all. */
                    import_suppliers: string[];
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        id: string;
                        /** @description Supplier codes, or ["*"] for all. */
                        import_suppliers: string[];
                        key: string;
                        name: string;
                        revoked_at: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRevokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetEmailOutbox: {
        parameters: {
            query?: {
                /** @description How many of the latest failures to list. */
                failures?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The e-mail outbox: delivery states and permanent failures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description E-mails per state: PENDING (waiting, or retrying later), SENDING, SENT, FAILED. */
                        counts: {
                            FAILED: number;
                            PENDING: number;
                            SENDING: number;
                            SENT: number;
                        };
                        /** @description Permanent failures (never retried), newest first. */
                        failures: ({
                            account_number: string;
                            attempts: number;
                            /** Format: date-time */
                            failed_at: string;
                            id: string;
                            kind: string;
                            /** @description The SMTP server's reply, or why Ferry gave up. */
                            reason: string;
                            recipient: string | null;
                            supplier: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        /** @description PENDING e-mails whose last attempt failed transiently. */
                        retrying: number;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
        };
    };
    adminListImportProcesses: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page. */
                cursor?: string;
                /** @description The code of the process's latest error. */
                error_code?: string;
                /** @description Processes per page, 1 to 1000 (default 100). */
                limit?: string;
                /** @description The process state. */
                status?: "STAGED" | "PENDING" | "IN_PROGRESS" | "PROCESSED" | "CANCELLED" | "DRY_RUN_SUCCEEDED" | "ERRORED" | "DRY_RUN_ERRORED";
                /** @description Import supplier code. */
                supplier?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Pass as `cursor` for the next page; null on the last page. */
                        next_cursor: string | null;
                        results: ({
                            attempts: number;
                            /** Format: date-time */
                            created_at: string;
                            external_account_number: string;
                            import_supplier: string;
                            is_dry_run: boolean;
                            latest_error: ({
                                code: string;
                                detail: string;
                                domain?: string;
                            } & {
                                [key: string]: unknown;
                            }) | null;
                            /** Format: date-time */
                            modified_at: string;
                            service_account_number: string | null;
                            /** @enum {string} */
                            status: "STAGED" | "PENDING" | "IN_PROGRESS" | "PROCESSED" | "CANCELLED" | "DRY_RUN_SUCCEEDED" | "ERRORED" | "DRY_RUN_ERRORED";
                        } & {
                            [key: string]: unknown;
                        })[];
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetImportProcess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                external: string;
                supplier: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An import process with its stored payload and every event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: ({
                            event: string;
                            /** Format: date-time */
                            occurred_at: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        external_account_number: string;
                        import_supplier: string;
                        /** @description The account data as stored. */
                        payload: {
                            [key: string]: unknown;
                        };
                        service_account_number: string | null;
                        status: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCancelImportProcess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                external: string;
                supplier: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An import process with its stored payload and every event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: ({
                            event: string;
                            /** Format: date-time */
                            occurred_at: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        external_account_number: string;
                        import_supplier: string;
                        /** @description The account data as stored. */
                        payload: {
                            [key: string]: unknown;
                        };
                        service_account_number: string | null;
                        status: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRetryImportProcess: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                external: string;
                supplier: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An import process with its stored payload and every event. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        events: ({
                            event: string;
                            /** Format: date-time */
                            occurred_at: string;
                        } & {
                            [key: string]: unknown;
                        })[];
                        external_account_number: string;
                        import_supplier: string;
                        /** @description The account data as stored. */
                        payload: {
                            [key: string]: unknown;
                        };
                        service_account_number: string | null;
                        status: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminCancelImportProcessesByFilter: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Which processes: every part given must hold; at least one part is required. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The code of the process's latest error. */
                    error_code?: string;
                    /**
                     * @description The process state.
                     * @enum {string}
                     */
                    status?: "STAGED" | "PENDING" | "IN_PROGRESS" | "PROCESSED" | "CANCELLED" | "DRY_RUN_SUCCEEDED" | "ERRORED" | "DRY_RUN_ERRORED";
                    /** @description Import supplier code. */
                    supplier?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        action: "cancel" | "retry";
                        /** @description Processes cancelled or retried. */
                        changed: number;
                        /** @description Processes the filter matched. */
                        matched: number;
                        /** @description Pages walked, one transaction each. */
                        pages: number;
                        /** @description Processes in a state the action is not allowed from. */
                        skipped: number;
                        skipped_by_status: {
                            [key: string]: number;
                        };
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminExportImportProcesses: {
        parameters: {
            query?: {
                /** @description The code of the process's latest error. */
                error_code?: string;
                /** @description csv or ndjson (default). */
                format?: "csv" | "ndjson";
                /** @description The process state. */
                status?: "STAGED" | "PENDING" | "IN_PROGRESS" | "PROCESSED" | "CANCELLED" | "DRY_RUN_SUCCEEDED" | "ERRORED" | "DRY_RUN_ERRORED";
                /** @description Import supplier code. */
                supplier?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description CSV with a header line, or NDJSON: one process (as in the list) a line. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                    "text/csv": string;
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminRetryImportProcessesByFilter: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description Which processes: every part given must hold; at least one part is required. */
        requestBody: {
            content: {
                "application/json": {
                    /** @description The code of the process's latest error. */
                    error_code?: string;
                    /**
                     * @description The process state.
                     * @enum {string}
                     */
                    status?: "STAGED" | "PENDING" | "IN_PROGRESS" | "PROCESSED" | "CANCELLED" | "DRY_RUN_SUCCEEDED" | "ERRORED" | "DRY_RUN_ERRORED";
                    /** @description Import supplier code. */
                    supplier?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        action: "cancel" | "retry";
                        /** @description Processes cancelled or retried. */
                        changed: number;
                        /** @description Processes the filter matched. */
                        matched: number;
                        /** @description Pages walked, one transaction each. */
                        pages: number;
                        /** @description Processes in a state the action is not allowed from. */
                        skipped: number;
                        skipped_by_status: {
                            [key: string]: number;
                        };
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminListImportSuppliers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        code: string;
                        config: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        document_root: string;
                        /** @description Import processes per status. */
                        import_processes?: {
                            [key: string]: number;
                        };
                        /** Format: date-time */
                        modified_at: string;
                        /** @enum {string} */
                        status: "Ongoing" | "Paused" | "Complete";
                    } & {
                        [key: string]: unknown;
                    })[];
                };
            };
        };
    };
    adminCreateImportSupplier: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                    config?: {
                        /** @description Every scheduled creation is a dry run. */
                        dry_run_only?: boolean;
                        /** @description Record a welcome e-mail when an account is created. */
                        send_welcome_emails?: boolean;
                    };
                    /** @description Folder of this supplier's documents inside the document store (default: the code in lower case). It may neither contain nor lie inside another supplier's root. */
                    document_root?: string;
                    /** @enum {string} */
                    status?: "Ongoing" | "Paused" | "Complete";
                };
            };
        };
        responses: {
            /** @description An import supplier. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        config: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        document_root: string;
                        /** @description Import processes per status. */
                        import_processes?: {
                            [key: string]: number;
                        };
                        /** Format: date-time */
                        modified_at: string;
                        /** @enum {string} */
                        status: "Ongoing" | "Paused" | "Complete";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetImportSupplier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An import supplier. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        config: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        document_root: string;
                        /** @description Import processes per status. */
                        import_processes?: {
                            [key: string]: number;
                        };
                        /** Format: date-time */
                        modified_at: string;
                        /** @enum {string} */
                        status: "Ongoing" | "Paused" | "Complete";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminUpdateImportSupplier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    config?: {
                        /** @description Every scheduled creation is a dry run. */
                        dry_run_only?: boolean;
                        /** @description Record a welcome e-mail when an account is created. */
                        send_welcome_emails?: boolean;
                    };
                    /** @description Folder of this supplier's documents inside the document store (default: the code in lower case). It may neither contain nor lie inside another supplier's root. */
                    document_root?: string;
                    /** @enum {string} */
                    status?: "Ongoing" | "Paused" | "Complete";
                };
            };
        };
        responses: {
            /** @description An import supplier. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        code: string;
                        config: {
                            [key: string]: unknown;
                        };
                        /** Format: date-time */
                        created_at: string;
                        document_root: string;
                        /** @description Import processes per status. */
                        import_processes?: {
                            [key: string]: number;
                        };
                        /** Format: date-time */
                        modified_at: string;
                        /** @enum {string} */
                        status: "Ongoing" | "Paused" | "Complete";
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adminGetImportSupplierProgress: {
        parameters: {
            query?: {
                /** @description How many minutes back, 1 to 1440 (default 60). */
                minutes?: string;
            };
            header?: never;
            path: {
                code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Accounts created in the whole series. */
                        created: number;
                        import_supplier: string;
                        per_minute: {
                            created: number;
                            /** Format: date-time */
                            minute: string;
                        }[];
                        /**
                         * Format: date-time
                         * @description The first minute of the series.
                         */
                        since: string;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOrUpdateAccountImportProcess: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountPayload"];
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        external_account_number: string;
                        import_supplier_code: string;
                    };
                };
            };
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        external_account_number: string;
                        import_supplier_code: string;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] | components["schemas"]["AccountAlreadyImportedV1"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    processAccountImportProcess: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "import_supplier_code": "TENTACLE_ENERGY",
                 *       "external_account_number": "EXTERNAL-1234",
                 *       "dry_run": false
                 *     }
                 */
                "application/json": {
                    /** @description Run the complete creation and keep nothing; a would-succeed run answers 400. */
                    dry_run?: boolean;
                    external_account_number: string;
                    import_supplier_code: string;
                    /** @description Format-checked only: Ferry holds no operations teams. */
                    operations_team_name?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Deprecated: the same as service_account_number. */
                        account_number: string;
                        external_account_number: string;
                        service_account_number: string;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] | components["schemas"]["AccountAlreadyImportedV1"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountTransferStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                external_account_number: string;
                /** @description Import supplier code. */
                import_supplier_code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Empty until the account is created. */
                        service_account_number: string;
                        /** @description UNKNOWN, COMPLETED or IN_PROGRESS. */
                        status: string;
                    };
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAllAccountImportProcesses: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Import supplier code. */
                import_supplier_code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account_created_at: string | null;
                        external_account_number: string;
                        service_account_number: string | null;
                    }[];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createHistoricalStatements: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "import_supplier": "TENTACLE_ENERGY",
                 *       "external_account_number": "EXTERNAL-1234",
                 *       "statements": [
                 *         {
                 *           "bill_period_from_date": "2019-06-01",
                 *           "bill_period_to_date": "2019-06-30",
                 *           "statement_id": "1",
                 *           "issued_date": "2019-07-02",
                 *           "number": "1",
                 *           "gross_amount": 100,
                 *           "statement_path": "path/to/statement-1.pdf"
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    external_account_number: string;
                    /** @description Import supplier code. */
                    import_supplier: string;
                    /** @description The historical statements, 1 to 1,000. */
                    statements: {
                        /**
                         * Format: date
                         * @description First day of the billed period. YYYY-MM-DD.
                         */
                        bill_period_from_date: string;
                        /**
                         * Format: date
                         * @description Last day of the billed period; on or after the first. YYYY-MM-DD.
                         */
                        bill_period_to_date: string;
                        /** @description Gross amount in minor units (pence). */
                        gross_amount?: number | null;
                        /**
                         * Format: date
                         * @description When the statement was issued. YYYY-MM-DD.
                         */
                        issued_date?: string | null;
                        number?: string;
                        /** @description The supplier's statement identifier; a statement already imported is not duplicated. */
                        statement_id: string;
                        /** @description The PDF, relative to the supplier's document root; it must exist. */
                        statement_path?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        external_account_number: string;
                        /** @description Import supplier code. */
                        import_supplier: string;
                        /** @description The historical statements, 1 to 1,000. */
                        statements: {
                            /**
                             * Format: date
                             * @description First day of the billed period. YYYY-MM-DD.
                             */
                            bill_period_from_date: string;
                            /**
                             * Format: date
                             * @description Last day of the billed period; on or after the first. YYYY-MM-DD.
                             */
                            bill_period_to_date: string;
                            /** @description Gross amount in minor units (pence). */
                            gross_amount?: number | null;
                            /**
                             * Format: date
                             * @description When the statement was issued. YYYY-MM-DD.
                             */
                            issued_date?: string | null;
                            number?: string;
                            /** @description The supplier's statement identifier; a statement already imported is not duplicated. */
                            statement_id: string;
                            /** @description The PDF, relative to the supplier's document root; it must exist. */
                            statement_path?: string;
                        }[];
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listImportedAccountImportProcesses: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Import supplier code. */
                import_supplier_code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account_created_at: string | null;
                        external_account_number: string;
                        service_account_number: string | null;
                    }[];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createNotes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "import_supplier": "TENTACLE_ENERGY",
                 *       "external_account_number": "EXTERNAL-1234",
                 *       "notes": [
                 *         {
                 *           "body": "Some important pinned note.",
                 *           "is_pinned": true,
                 *           "unpin_at": "2030-06-01T12:00:00Z"
                 *         },
                 *         {
                 *           "created_at": "2020-02-01T12:00:00Z",
                 *           "body": "Some important note with an attachment.",
                 *           "document_paths": [
                 *             {
                 *               "document_path": "some/path/to/a/document.pdf"
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    external_account_number: string;
                    /** @description Import supplier code. */
                    import_supplier: string;
                    /** @description The notes, 1 to 1,000. */
                    notes: {
                        /** @description A note needs a body, documents, or both. */
                        body?: string;
                        /**
                         * Format: date-time
                         * @description Default: now. ISO 8601: YYYY-MM-DDTHH:MM:SSZ, or with an offset or a fraction.
                         */
                        created_at?: string;
                        /** @description Attachments; the documents must already be in the store. */
                        document_paths?: {
                            /** @description Relative to the supplier's document root; the document must exist. */
                            document_path: string;
                        }[];
                        /** @description The note's id in the supplier's system: a note with an external_id already on the account is NOTE_ALREADY_EXISTS. */
                        external_id?: string;
                        /** @description Archived on the account page. Default: false. */
                        is_archived?: boolean;
                        /** @description Pinned at the top of the account page. */
                        is_pinned?: boolean;
                        /**
                         * Format: date-time
                         * @description Only with is_pinned true; the note is no longer pinned from this instant on. ISO 8601: YYYY-MM-DDTHH:MM:SSZ, or with an offset or a fraction.
                         */
                        unpin_at?: string;
                    }[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The body; "" for a note with documents only. */
                        body: string;
                        /** Format: date-time */
                        created_at: string;
                        /** @description NOTE_CREATION_SUCCESS or NOTE_ALREADY_EXISTS. */
                        status: string;
                    }[];
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createPaymentInstruction: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "import_supplier": "TENTACLE_ENERGY",
                 *       "external_account_number": "EXTERNAL-1234",
                 *       "vendor": "GOCARDLESS",
                 *       "reference": "MD000SIMACTIVE",
                 *       "type": "DIRECT_DEBIT"
                 *     }
                 */
                "application/json": {
                    external_account_number: string;
                    /** @description Import supplier code. */
                    import_supplier: string;
                    /**
                     * Format: ledger-code
                     * @description On every instruction or on none.
                     */
                    ledger_code?: string;
                    /** @description The vendor's id, e.g. a GoCardless mandate or a Stripe payment method; the vendor says whether it exists. */
                    reference: string;
                    /**
                     * @description Kind of instruction.
                     * @enum {string}
                     */
                    type: "DIRECT_DEBIT" | "CARD";
                    /** @description Whether it pays the account's payment schedule. */
                    use_for_scheduled_payments?: boolean | null;
                    /** Format: date */
                    valid_from?: string | null;
                    /**
                     * @description The payment vendor holding the instruction.
                     * @enum {string}
                     */
                    vendor: "GOCARDLESS" | "STRIPE";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The vendor's reference, as stored. */
                        reference: string;
                        /** @description The account number on this service. */
                        service_account_number: string;
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentInstructionError"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentInstructionError"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A server or vendor error: safe to retry unchanged. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentInstructionError"];
                };
            };
        };
    };
    listPendingAccountImportProcesses: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Import supplier code. */
                import_supplier_code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        account_created_at: string | null;
                        external_account_number: string;
                        service_account_number: string | null;
                    }[];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTransactions: {
        parameters: {
            query?: {
                /** @description Default true: a transaction_id already on the account is skipped (TRANSACTION_ALREADY_EXISTS). */
                check_previously_added?: boolean;
                /** @description Default true: a transaction dated before the open statement period is moved to its start, described, and listed in a pinned note. */
                force_add_to_current_statement?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "import_supplier": "ACME",
                 *       "external_account_number": "EXT-0001",
                 *       "transactions": [
                 *         {
                 *           "transaction_id": "PAY-1",
                 *           "transaction_date": "2024-11-15",
                 *           "amount": 45,
                 *           "type": "PAYMENT",
                 *           "reason": "ACCOUNT_CHARGE_PAYMENT",
                 *           "payment_type": "DD_REGULAR_COLLECTION"
                 *         },
                 *         {
                 *           "transaction_id": "SC-1",
                 *           "transaction_date": "2024-11-30",
                 *           "amount": "53.24",
                 *           "type": "SUPPLY_CHARGE",
                 *           "product_code": "E-1R-FERRY-FIX-24M",
                 *           "line_items": [
                 *             {
                 *               "rate_band": "CONSUMPTION_STANDARD",
                 *               "start_date": "2024-11-01",
                 *               "end_date": "2024-11-30",
                 *               "number_of_units": 160,
                 *               "net_amount": 44,
                 *               "price_per_unit": 0.275
                 *             }
                 *           ],
                 *           "tax_items": [
                 *             {
                 *               "amount": 9.24,
                 *               "tax_type": "VAT",
                 *               "value_taxed": 44,
                 *               "rate": 0.21,
                 *               "unit_type": "PROPORTION"
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description true: checked and answered exactly as if added, but nothing is stored. */
                    dry_run?: boolean;
                    external_account_number: string;
                    /** @description Import supplier code. */
                    import_supplier: string;
                    /** @description At most 1,000 transactions, each as in the account payload. Amounts: at most 2 decimal places. */
                    transactions: ({
                        /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
                        amount: string | number;
                        /** @description Historical statement transactions only. */
                        billing_document_identifier?: string;
                        display_note?: string;
                        note?: string;
                        /** @enum {string} */
                        reason: "BALANCE_ADJUSTMENT" | "BALANCE_TRANSFER" | "BANK_TRANSFER" | "CONTRIBUTION_TAX_FREE" | "CUSTOMER_SERVICE_GESTURE" | "DEPOSIT" | "DIRECT_DEBIT_DISCOUNT" | "JOINING_REWARD" | "LOYALTY_REWARD" | "REVERSED_ACCOUNT_CHARGE" | "CUSTOMER_REIMBURSEMENT" | "DATA_IMPORT_BALANCE_TRANSFER" | "DEBIT_BALANCE_TRANSFER" | "GOODWILL_PAYMENT" | "IMPORTED_CREDIT" | "SUPPLEMENTARY_LEDGER_BALANCE_TRANSFER" | "WRITE_OFF_PAST_BILLABLE_AUTOMATED" | "WRITE_OFF_BACK_BILLING" | "WRITE_OFF_NEGLIGIBLE_VALUE" | "WRITE_OFF_UNRECOVERABLE_DEBT" | "WRITE_OFF_PAST_BILLABLE" | "WRITE_OFF_RECOVERY_DISCOUNT" | "WRITE_OFF_BANKRUPTCY" | "WRITE_OFF_DRO" | "WRITE_OFF_IVA" | "WRITE_OFF_DECEASED" | "WRITE_OFF_MISSED_PAYMENT_DELETION" | "UNLIKELY_TO_RECOVER_WRITE_OFF" | "REFERRING_ACCOUNT_REFERRAL_REWARD" | "REFERRED_ACCOUNT_REFERRAL_REWARD" | "PREPAY_BALANCE_ADJUSTMENT" | "PREPAY_IMBALANCE_WRITE_OFF" | "PREPAY_MIGRATION_IMBALANCE" | "ACCURACY_TEST_ADJUSTMENT" | "ADDITIONAL_SOP_PAYMENT_APPOINTMENTS" | "ADDITIONAL_SOP_PAYMENT_CUSTOMER_NOT_RETURNED" | "ADDITIONAL_SOP_PAYMENT_ELECTRICITY_SWITCH_DELAYED" | "ADDITIONAL_SOP_PAYMENT_ERRONEOUS_TRANSFER" | "ADDITIONAL_SOP_PAYMENT_ET_COMMS_OVERDUE" | "ADDITIONAL_SOP_PAYMENT_ET_GAIN_ACCEPTED" | "ADDITIONAL_SOP_PAYMENT_ET_GAIN_UNRESOLVED" | "ADDITIONAL_SOP_PAYMENT_ET_LOSS_UNRESOLVED" | "ADDITIONAL_STANDARD_PAYMENT" | "ADJUSTED_CREDIT_TO_ALLOW_REFUND" | "ADJUSTMENT_ON_RETURNED_DEPOSIT" | "BALANCE_TRANSFER_FOR_FINAL_BILLED_ACCOUNT" | "CHEQUE_PAYMENT_RECEIVED" | "CLOSED_REVERSION" | "DEBT_ASSIGNMENT_LOSING_SUPPLIER" | "DEPOSIT_REFUND" | "DIRECT_DEBIT_BANK_CHARGE_MAY" | "DISC_WARM_HOME_DISCOUNT" | "DISPUTED_CARD_PAYMENTS" | "ECONOMY_7_DIFFERENCE" | "ERRONEOUS_TRANSFER_REFUND" | "EXIT_FEE_REFUND" | "EXPORT_TARIFF_PAYMENT" | "EXTERNAL_REFERRAL_CREDIT" | "FEED_IN_TARIFF_PAYMENT" | "GO_CARDLESS_CHARGEBACK_CANCELLED" | "GSS_AFFECT" | "GSS_FAILURE" | "GSS_FAILURE_MOP" | "HONOURED_BANK_CHARGES" | "INCOMING_PAYMENT_GO_CARDLESS" | "MANAGEMENT_WAIVED_FEES" | "MARKET_RESEARCH_CLUB_REWARD" | "MISSED_SAVINGS" | "OFFSET" | "PAYMENT_BANK_ACCOUNT" | "PAYMENT_BPAY" | "PAYMENT_CENTREPAY" | "PAYMENT_CHEQUE" | "PAYMENT_CREDIT_CARD" | "PAYMENT_TRANSFER_FROM_SAP" | "PREPAY_DEBT_ADJUSTMENT" | "QLD_ASSET_OWNERSHIP_DIVIDEND" | "RECEIVED_VIA_CREDIT_STYLE" | "REFERRALCANDY_INCENTIVE" | "REINSTATED_DIRECT_DEBIT" | "RETURNED_BUSINESS_ADVANCE_PAYMENT" | "RETURNED_BUSINESS_PREPAYMENT" | "REVERSE_ENERGY_CHARGE" | "REVERSIONED_POST_DD_CANX" | "SALES_COMPENSATION" | "SHARE_OF_PROFITS" | "SINGLE_RATE_RMI" | "SME_REVERSED_PRE_MIGRATION_CHARGE" | "SOLAR_GOODWILL" | "SOLR_BALANCE_TRANSFER" | "SOLR_EX_CUSTOMER_CREDIT" | "SOLR_WRITE_OFF" | "STAFF_DISCOUNT" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_FAULTY_METER_ELEC" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_PREPAY_METER_ELEC" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_RECONNECTION_ELEC" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_STANDARD_VISIT_ELEC" | "STANDARDS_OF_PERFORMANCE_CUSTOMER_NOT_RETURNED" | "STANDARDS_OF_PERFORMANCE_ERRONEOUS_TRANSFER" | "STANDARDS_OF_PERFORMANCE_ET_COMMS_OVERDUE" | "STANDARDS_OF_PERFORMANCE_ET_GAIN_ACCEPTED" | "STANDARDS_OF_PERFORMANCE_ET_GAIN_UNRESOLVED" | "STANDARDS_OF_PERFORMANCE_ET_LOSS_UNRESOLVED" | "STANDARDS_OF_PERFORMANCE_FINAL_BILL_ISSUED_LATE" | "STANDARDS_OF_PERFORMANCE_PAYMENTS" | "STANDARDS_OF_PERFORMANCE_REFUND_ISSUED_LATE" | "TARIFF_DISCOUNT" | "TARIFF_PRICE_ADJUSTMENT_GOODWILL" | "WAIVE_TERMINATION_FEES" | "WITHDRAWAL_NOT_ACTIONED" | "EBSS_CREDIT" | "WARM_HOME_DISCOUNT_BROADER_GROUP" | "WARM_HOME_DISCOUNT_CORE_GROUP" | "WARM_HOME_DISCOUNT_CORE_GROUP_1" | "WARM_HOME_DISCOUNT_CORE_GROUP_2" | "ADDITIONAL_SOP_PAYMENT_GAS_SWITCH_DELAYED" | "GAS_NETWORK_COMPENSATION" | "GAS_OFF_SUPPLY_PAYMENT" | "GOVERNMENT_ENERGY_ASSISTANCE_HEEA" | "PAYMENT_AUSPOST" | "PAYMENT_EAPA_VOUCHER" | "PAYMENT_IVR" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_FAULTY_METER_GAS" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_PREPAY_METER_GAS" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_RECONNECTION_GAS" | "STANDARDS_OF_PERFORMANCE_APPOINTMENTS_STANDARD_VISIT_GAS" | "MIGRATION_ADJUSTMENT" | "BILL_ADJUSTMENT_0" | "BILL_ADJUSTMENT_20" | "BILL_ADJUSTMENT_5" | "GOODWILL" | "DAILY_STANDING_CHARGE_ROLLBACK" | "CANCELLED_CHEQUE_RESI" | "CANCELLED_CHEQUE_SME" | "PREPAYMENT_ADDITIONAL_SUPPORT_CREDIT" | "WELFARE_VISIT_FEE_REVERSAL" | "WARRANT_FEES_COSTS_REVERSAL" | "WARRANT_EXECUTION_FEE_REVERSAL" | "MISDIRECTED_CREDIT_PAYMENT" | "MISSING_PREPAYMENT_TOP_UP" | "TERM_DCA_FEE_REVERSAL" | "HAMPTON_FUEL_PAYMENT" | "DEEMED_0_CONSUMPTION_WRITE_OFF" | "NET_ZERO_HERO_AWARD" | "STANDARD_OF_PERFORMANCE_ELEC_SWITCH_DELAY" | "STANDARD_OF_PERFORMANCE_GAS_SWITCH_DELAY" | "ADDITIONAL_SOP_FINAL_BILL_OVERDUE" | "EMAIL_PRIZE_DRAW" | "GREEN_DEAL" | "GREEN_DEAL_WRITE_OFF" | "GREEN_DEAL_BILL_ADJUSTMENT" | "OPUS_FINAL_BALANCE_TRANSFER" | "OPUS_FINAL_BALANCE_ADJUSTMENT" | "WARM_HOME_DISCOUNT_REBATE_5" | "RECONNECTION_CHARGE_REV" | "DAP_LOSING_SUPPLIER_10" | "DAP_LOSING_SUPPLIER_90" | "LOYALTY_RETAIN" | "SUNDAY_SAVER" | "RMGEDF24" | "SAP_MIGRATED_CREDITS" | "TESEDF24" | "WHIEDF24" | "VODEDF24" | "NISEDF24" | "EV_50_CREDIT" | "PLUG__POWER_300_CREDIT" | "PLUG__POWER_200_CREDIT" | "RENEWAL_CREDIT" | "EV_FLEX_SCHEME_CREDIT" | "REFER_A_FRIEND_5" | "WRITE_OFF_UNRECOVERABLE_DEBT_RESI" | "INDEMNITY_CLAIM" | "VALENTINES_DAY" | "RIPPLE_ENERGY_CREDIT_RESI" | "RIPPLE_ENERGY_CREDIT_BUSINESS" | "RESQEDF25" | "PREEDF25" | "TRANSFERRED_DEBT_BILL_ADJUSTMENT" | "SBOFFERCREDIT" | "EVRI100" | "OPUS_DEENERGISED_ADJUSTMENT" | "SMART_CHARGING_INCENTIVE" | "SMART_CHARGING_SAVING" | "FAFS_TERMED_ACCOUNT" | "PLUG__POWER_100_CREDIT" | "SETTLEMENT_LIVE_ACCOUNT" | "TENNIS_FINALS_CREDIT" | "SCHOOL_HOLIDAYS_CREDIT" | "CHRISTMAS_DAY_CREDIT" | "FREE_PHASE_FREE_ELECTRICITY" | "EARLY_RENEWAL_50_CREDIT" | "GOELECTRIC_130_OFFER" | "EXPORT_TARIFF_PAYMENT_RESI" | "REFER_A_FRIEND_NEW" | "DEBTSOLD_PAYMENTREVERSAL" | "BUPEDF25" | "CARE_SUPPORT_SCHEME" | "UTILITA_TRANSFER" | "WELCOMEGAS1YEAR" | "UTILITA_FINAL_BALANCE_TRANSFER" | "WELCOMEGAS2YEAR" | "WELCOMEGAS3YEAR" | "WELCOMEGAS4YEAR" | "EARLY_RENEWAL_75_CREDIT" | "SUNDAY_SAVER__ERRONEOUS_MESSAGE_COMPENSATION" | "EV_SWITCH_BONUS_50" | "SBNEWACQ1YEAR" | "SBNEWACQ2YEAR" | "SBNEWACQ3YEAR" | "SBNEWACQ4YEAR" | "SBNEWACQ100" | "SBNEWACQ150" | "SBNEWACQ175" | "SBNEWACQ200" | "LATE_PAYMENT_REVERSAL" | "OVERDALES_DEBT_WRITE_OFF" | "SBNEWACQFIX50" | "SBNEWACQFIX150" | "SBNEWACQFIX100" | "SBNEWACQFIX175" | "OFGEM_DEBT_RELIEF_SCHEME_GROUP_1" | "SB_DEBT_WRITTEN_OFF_DEBT_RECOVERY_ACTION_CONTINUING_20" | "SB_DEBT_WRITTEN_OFF_DEBT_RECOVERY_ACTION_CONTINUING_5_VAT" | "OFGEM_DEBT_RELIEF_SCHEME_GROUP_2" | "SB_FREE_ENERGY" | "ADDITIONAL_SOP_FINAL_BILL_REFUND_OVERDUE" | "LOW_STANDING_CHARGE_TRIAL_GAS" | "LOW_STANDING_CHARGE_TRIAL_ELECTRICITY" | "NEWACQGAS200" | "UUEDF26" | "CHAPS_PAYMENT" | "FOOTBALL_CREDIT" | "RESI_DEBT_WRITTEN_OFF_DEBT_RECOVERY_ACTION_CONTINUING" | "SBEXTRANEWACQ100" | "SBEXTRANEWACQ150" | "SBEXTRANEWACQ25" | "SBEXTRANEWACQ50" | "SBEXTRANEWACQ75";
                        reference?: string;
                        /** @description Vend to a prepay meter; must match a meter with prepay_details. */
                        to_prepay_meter_serial_number?: string;
                        /**
                         * Format: date
                         * @description Not in the future.
                         */
                        transaction_date: string;
                        /** @description Unique across all transactions of the payload. At most 128 characters. */
                        transaction_id: string;
                        /** @enum {string} */
                        type: "CREDIT";
                    } | {
                        /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
                        amount: string | number;
                        /** @description Historical statement transactions only. */
                        billing_document_identifier?: string;
                        display_note?: string;
                        note?: string;
                        /** @enum {string} */
                        reason: "DEFAULT" | "BALANCE_TRANSFER" | "CONTRIBUTION_TAX_FREE" | "DATA_IMPORT_BALANCE_TRANSFER" | "DEPOSIT" | "BALANCE_TRANSFER_FOR_FINAL_BILLED_ACCOUNT" | "IMPORTED_CHARGE" | "SUPPLEMENTARY_LEDGER_BALANCE_TRANSFER" | "REVERSED_ACCOUNT_CREDIT" | "LATE_PAYMENT_FEE_CHARGE" | "PREPAY_BALANCE_ADJUSTMENT" | "PREPAY_IMBALANCE_WRITE_OFF" | "PREPAY_MIGRATION_IMBALANCE" | "AC_ADJUSTMENT" | "ADJUSTED_CREDIT_TO_ALLOW_REFUND" | "AUTO_RECONCILIATION" | "BUSINESS_ADVANCE_PAYMENT" | "BUSINESS_PREPAYMENT" | "CARBON_OFFSET" | "CREDIT_BALANCE_DONATED_TO_CHARITY" | "DCA_CHARGE" | "DEBT_ASSIGNMENT_GAINING_SUPPLIER" | "DIRECT_DEBIT_REFUND_BALANCING" | "FEED_IN_TARIFF_PAYMENT_TRANSFER_TO_NOMINATED_RECIPIENT" | "GREEN_DEAL_CHARGE" | "INCORRECT_PAYMENT_REVERSAL" | "METERING_JOB_BUSINESS" | "METERING_JOB_NATIONAL_GRID" | "METERING_JOB_SMS" | "NEST_LEARNING_THERMOSTAT_RENTAL" | "OUTGOING_BALANCE_TRANSFER" | "OVER_THE_COUNTER_PAYMENT_FEE" | "PAPER_BILL_FEE" | "PENALTY_CHARGE" | "PREPAY_DEBT_ADJUSTMENT" | "REASON_EARLY_EXIT_FEE" | "REFUND" | "SERVICE_ORDER" | "SOLR_BALANCE_TRANSFER" | "WATER" | "WRITE_BACK" | "EBSS_CHARGE_REVERSAL" | "LATE_PAYMENT_FEE" | "RPS_INVESTIGATION_CHARGE" | "RPS_WARRANT_CHARGE" | "RPS_DAMAGE" | "RPS_RESEAL_FEE" | "SAP_MIGRATED_DEBITS" | "ADDITIONAL_CHARGES_0" | "ADDITIONAL_CHARGES_20" | "ADDITIONAL_CHARGES_5" | "RECONNECTION_CHARGE" | "GREENDEALCHARGE" | "OPUS_FINAL_BALANCE_TRANSFER" | "REASON_EARLY_EXIT_FEE_5" | "TEMP_REFUND" | "MIGRATION_ADJUSTMENT" | "WELFARE_VISIT_FEE" | "WARRANT_FEES_COSTS" | "WARRANT_EXECUTION_FEE" | "TERM_DCA_FEE" | "POST_OFFICE_PAYMENT_CORRECTION" | "RPS_LOSS_5" | "RPS_ADJUSTMENT_20" | "RPS_CCL_ADJUSTMENT" | "METERING_APPOINTMENT_FAILURE" | "REASON_EARLY_EXIT_FEE_0" | "PAYMENT_CORRECTION" | "OPUS_FINAL_BALANCE_ADJUSTMENT" | "LATE_PAYMENT_RESI" | "LATE_PAYMENT_SME" | "EARLY_TERMINATION_FEE" | "TRANSFERRED_DEBT_BILL_ADJUSTMENT" | "INDEMNITY_CLAIM" | "SAP_WRITE_OFF_RECOVER" | "DEBTSOLD_PAYMENTREVERSAL" | "CHAPS_REFUND";
                        reference?: string;
                        /** @description Omitted means no tax. */
                        tax_items?: {
                            /** @description Tax amount in pounds. */
                            amount: string | number;
                            params?: {
                                [key: string]: unknown;
                            };
                            rate: string | number;
                            tax_type: string;
                            /** @enum {string} */
                            unit_type: "PROPORTION" | "CURRENCY_PER_KWH";
                            value_taxed: string | number;
                        }[];
                        /** @description Vend to a prepay meter; must match a meter with prepay_details. */
                        to_prepay_meter_serial_number?: string;
                        /**
                         * Format: date
                         * @description Not in the future.
                         */
                        transaction_date: string;
                        /** @description Unique across all transactions of the payload. At most 128 characters. */
                        transaction_id: string;
                        /** @enum {string} */
                        type: "CHARGE";
                    } | {
                        /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
                        amount: string | number;
                        /** @description Historical statement transactions only. */
                        billing_document_identifier?: string;
                        display_note?: string;
                        note?: string;
                        /** @enum {string} */
                        payment_type?: "DD_FIRST_COLLECTION" | "DD_REGULAR_COLLECTION" | "DD_RE_PRESENTATION" | "DD_FINAL_COLLECTION" | "CREDIT_CARD" | "DEBIT_CARD" | "CHEQUE" | "BACS_DEPOSIT" | "ALLPAY_CASH" | "ALLPAY_CARD" | "ALLPAY_CHEQUE" | "PAYPOINT_CASH" | "PAYPOINT_CARD" | "PAYPOINT_CHEQUE" | "DCA_COLLECTION" | "BRISTOL_POUND" | "CASH" | "FUEL_DIRECT" | "BPAY" | "AUSTRALIA_POST" | "HEEA" | "HEEAS" | "CENTREPAY" | "EAPA_VOUCHER" | "URGS" | "BPOINT" | "EFT" | "ERRONEOUS_PAYMENT" | "PAYZONE" | "POST_OFFICE_CASH" | "POST_OFFICE_CARD" | "POST_OFFICE_CHEQUE" | "POST_OFFICE_SAVINGS_STAMPS" | "KONBINI" | "";
                        /** @enum {string} */
                        reason?: "ACCOUNT_CHARGE_PAYMENT" | "BALANCE_ADJUSTMENT" | "GENERAL_CREDIT" | "SSD_PAYMENT" | "DEBT_REPAYMENT" | "PREPAY_RECORD" | "DEPOSIT" | "SETTLEMENT" | "BALANCE_THRESHOLD_CROSSED" | "BILL_ISSUED" | "PAYMENT_PLAN" | "REGULAR_SCHEDULE" | "REPAYMENT_CORRECTION" | "";
                        reference?: string;
                        /** @description Vend to a prepay meter; must match a meter with prepay_details. */
                        to_prepay_meter_serial_number?: string;
                        /**
                         * Format: date
                         * @description Not in the future.
                         */
                        transaction_date: string;
                        /** @description Unique across all transactions of the payload. At most 128 characters. */
                        transaction_id: string;
                        /** @enum {string} */
                        type: "PAYMENT";
                    } | {
                        /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
                        amount: string | number;
                        /** @description Historical statement transactions only. */
                        billing_document_identifier?: string;
                        display_note?: string;
                        note?: string;
                        /** @enum {string} */
                        payment_type?: "DIRECT_CREDIT" | "CARD_REFUND" | "BACS" | "CHEQUE" | "BPAY" | "";
                        /** @enum {string} */
                        reason?: "FULL_CREDIT_REFUND" | "PARTIAL_CREDIT_REFUND" | "FULL_PREPAYMENT_REFUND" | "PARTIAL_REPAYMENT_REFUND" | "ET_REFUND" | "GENERATOR_ACCOUNT_REFUND" | "DOMESTIC_EXPORT_ONLY_REPAYMENT" | "FINAL_BALANCE_SETTLEMENT" | "MISTAKEN_PAYMENT_TAKEN" | "PAYMENT_CORRECTION" | "COMPLAINT_COMPENSATION" | "INDEMNITY_CLAIM" | "FAILED_PAYMENT" | "FEED_IN_TARIFF_PAYMENT" | "GSOS_PAYMENT" | "SEG_PAYMENT" | "DEPOSIT_RETURN" | "LATE_FAILED_PAYMENT" | "CANCELED_BILL" | "BILLING_ADJUSTMENT" | "ETF_CREDIT" | "FAST_TRACK" | "CHARGEBACK" | "";
                        reference?: string;
                        /** @description Vend to a prepay meter; must match a meter with prepay_details. */
                        to_prepay_meter_serial_number?: string;
                        /**
                         * Format: date
                         * @description Not in the future.
                         */
                        transaction_date: string;
                        /** @description Unique across all transactions of the payload. At most 128 characters. */
                        transaction_id: string;
                        /** @enum {string} */
                        type: "REPAYMENT";
                    } | {
                        /** @description Pounds. Payments and credits add to the balance; charges and repayments subtract. */
                        amount: string | number;
                        /** @description Historical statement transactions only. */
                        billing_document_identifier?: string;
                        display_note?: string;
                        /** @description Their net amounts plus tax make up the amount. */
                        line_items: {
                            /**
                             * Format: date
                             * @description Inclusive; not before start_date.
                             */
                            end_date: string;
                            external_rate_identifier?: string;
                            /** @description price_per_unit × number_of_units, in pounds. */
                            net_amount: string | number;
                            number_of_units: string | number;
                            params?: {
                                [key: string]: unknown;
                            };
                            price_per_unit?: string | number;
                            /** @description Exactly one of rate_band, rate_specification_code, time_series_specification_code. */
                            rate_band?: string;
                            rate_specification_code?: string;
                            /**
                             * Format: date
                             * @description Inclusive.
                             */
                            start_date: string;
                            time_series_specification_code?: string;
                            /** @description Metered line items only: exactly two values. */
                            units?: (string | number)[];
                        }[];
                        note?: string;
                        /** Format: product-code */
                        product_code: string;
                        reference?: string;
                        /** @description Required when a line item uses rate_specification_code. */
                        supply_point_identifier?: string;
                        tax_items?: {
                            /** @description Tax amount in pounds. */
                            amount: string | number;
                            params?: {
                                [key: string]: unknown;
                            };
                            rate: string | number;
                            tax_type: string;
                            /** @enum {string} */
                            unit_type: "PROPORTION" | "CURRENCY_PER_KWH";
                            value_taxed: string | number;
                        }[];
                        /** @description Vend to a prepay meter; must match a meter with prepay_details. */
                        to_prepay_meter_serial_number?: string;
                        /**
                         * Format: date
                         * @description Not in the future.
                         */
                        transaction_date: string;
                        /** @description Unique across all transactions of the payload. At most 128 characters. */
                        transaction_id: string;
                        /** @enum {string} */
                        type: "SUPPLY_CHARGE";
                    })[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: {
                            /** @enum {string} */
                            status: "TRANSACTION_ADDED_TO_ACCOUNT" | "TRANSACTION_ALREADY_EXISTS";
                            transaction_data: {
                                [key: string]: unknown;
                            };
                        }[];
                    };
                };
            };
            /** @description A validation error, or the first transaction that cannot be added and why. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] | components["schemas"]["TransactionImportError"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validateAccountV1: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountPayload"];
            };
        };
        responses: {
            /** @description A GB energy account to import. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountPayload"];
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] | components["schemas"]["AccountAlreadyImportedV1"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    graphql: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    extensions?: Record<string, never>;
                    operationName?: string | null;
                    persisted?: boolean;
                    query?: string;
                    variables?: {
                        [key: string]: unknown;
                    } | null;
                };
            };
        };
        responses: {
            /** @description OK */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data?: {
                            [key: string]: unknown;
                        } | null;
                        errors?: {
                            extensions?: {
                                code?: string;
                            } & {
                                [key: string]: unknown;
                            };
                            locations?: {
                                column?: number;
                                line?: number;
                            }[];
                            message: string;
                            path?: string[];
                        }[];
                        extensions?: {
                            [key: string]: unknown;
                        };
                    };
                };
            };
        };
    };
    scheduleAccountCreation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountPayload"] | {
                    payload: components["schemas"]["AccountPayload"];
                    /** @description How and when to run the scheduled creation. */
                    task_params?: {
                        /**
                         * @description Create the account in a transaction that is rolled back.
                         * @default false
                         */
                        is_dry_run?: boolean;
                        /**
                         * Format: date-time
                         * @description At most 4 days ahead; after the start. Default: start + 4 days.
                         */
                        schedule_window_end?: string | null;
                        /**
                         * Format: date-time
                         * @description Not before this instant; not in the past. Default: now.
                         */
                        schedule_window_start?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description A validation or state error, or the account exists. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"] | components["schemas"]["AccountAlreadyImported"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountImportStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                external_identifier: string;
                /** @description Import supplier code. */
                import_supplier_code: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: date-time */
                        created_at: string;
                        latest_error: {
                            code: string;
                            detail: string;
                            domain: string;
                        } | null;
                        latest_event: {
                            data: {
                                [key: string]: unknown;
                            } | null;
                            event: string;
                            /** Format: date-time */
                            occurred_at: string;
                        };
                        /** Format: date-time */
                        modified_at: string;
                        /** @description The service account number; set only when PROCESSED. */
                        service_identifier: string | null;
                        /** @description PENDING, IN_PROGRESS, PROCESSED, CANCELLED, DRY_RUN_SUCCEEDED, ERRORED or DRY_RUN_ERRORED. */
                        status: string;
                    };
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Not found. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    scheduleAccountCreationInBulk: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": (components["schemas"]["AccountPayload"] | {
                    payload: components["schemas"]["AccountPayload"];
                    /** @description How and when to run the scheduled creation. */
                    task_params?: {
                        /**
                         * @description Create the account in a transaction that is rolled back.
                         * @default false
                         */
                        is_dry_run?: boolean;
                        /**
                         * Format: date-time
                         * @description At most 4 days ahead; after the start. Default: start + 4 days.
                         */
                        schedule_window_end?: string | null;
                        /**
                         * Format: date-time
                         * @description Not before this instant; not in the past. Default: now.
                         */
                        schedule_window_start?: string | null;
                    };
                })[];
                "application/x-ndjson": string;
            };
        };
        responses: {
            /** @description One result per account, in the order sent. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: {
                            /** @description The create endpoint's body for this account: {} when scheduled. */
                            body: components["schemas"]["Error"] | components["schemas"]["AccountAlreadyImported"] | components["schemas"]["BulkCreated"];
                            /** @description As the line names it (bare or wrapped); null when it names none or cannot be read. */
                            external_account_number: string | null;
                            /** @description The status the create endpoint would have answered for this account alone. */
                            status: 201 | 400 | 403 | 413;
                        }[];
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getAccountImportStatuses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "import_supplier": "ACME",
                 *       "external_identifiers": [
                 *         "EXT-0000001",
                 *         "EXT-0000002"
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description External identifiers (external account numbers) of the supplier, at most 1,000. */
                    external_identifiers: string[];
                    /** @description Import supplier code. */
                    import_supplier: string;
                };
            };
        };
        responses: {
            /** @description One result per identifier, in order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        results: {
                            /** @description Its body: the status record, or the 404 error. */
                            body: {
                                /** Format: date-time */
                                created_at: string;
                                latest_error: {
                                    code: string;
                                    detail: string;
                                    domain: string;
                                } | null;
                                latest_event: {
                                    data: {
                                        [key: string]: unknown;
                                    } | null;
                                    event: string;
                                    /** Format: date-time */
                                    occurred_at: string;
                                };
                                /** Format: date-time */
                                modified_at: string;
                                /** @description The service account number; set only when PROCESSED. */
                                service_identifier: string | null;
                                /** @description PENDING, IN_PROGRESS, PROCESSED, CANCELLED, DRY_RUN_SUCCEEDED, ERRORED or DRY_RUN_ERRORED. */
                                status: string;
                            } | components["schemas"]["Error"];
                            external_identifier: string;
                            /** @description The status the status endpoint would have answered for this identifier alone. */
                            status: 200 | 404;
                        }[];
                    };
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountPayload"] | {
                    payload: components["schemas"]["AccountPayload"];
                    /** @description How and when to run the scheduled creation. */
                    task_params?: {
                        /**
                         * @description Create the account in a transaction that is rolled back.
                         * @default false
                         */
                        is_dry_run?: boolean;
                        /**
                         * Format: date-time
                         * @description At most 4 days ahead; after the start. Default: start + 4 days.
                         */
                        schedule_window_end?: string | null;
                        /**
                         * Format: date-time
                         * @description Not before this instant; not in the past. Default: now.
                         */
                        schedule_window_start?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": Record<string, never>;
                };
            };
            /** @description The request is not valid; nothing was changed. */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No, or no valid, credentials. */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The credentials do not cover this import supplier. */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Too many requests: retry after the Retry-After header. */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
