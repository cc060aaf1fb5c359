CREATE TABLE "audit_log" (
	"id" bigint PRIMARY KEY DEFAULT 0 NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" integer,
	"action" text NOT NULL,
	"table_name" text,
	"row_key" jsonb,
	"old_values" jsonb,
	"new_values" jsonb,
	"details" jsonb,
	"prev_hash" text DEFAULT '' NOT NULL,
	"hash" text DEFAULT '' NOT NULL
);
