CREATE TABLE "login_attempts" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "participants" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "participants_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"study_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"fname" text NOT NULL,
	"lname" text NOT NULL,
	"gender" text,
	"date_of_birth" date,
	"subject_id" text DEFAULT '' NOT NULL,
	"email" text,
	"first_login_timestamp" timestamp with time zone,
	"last_updated" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "revoked_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "site_permissions" (
	"user_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "site_permissions_user_id_site_id_pk" PRIMARY KEY("user_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" integer PRIMARY KEY NOT NULL,
	"study_id" integer NOT NULL,
	"label" text NOT NULL,
	"tree_level" integer NOT NULL,
	"is_virtual" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"id" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sms_enabled" boolean DEFAULT false NOT NULL,
	"new_consent_enabled" boolean DEFAULT false NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_permissions" (
	"user_id" integer NOT NULL,
	"study_id" integer NOT NULL,
	"role" text NOT NULL,
	"scope" text[] DEFAULT '{}'::text[] NOT NULL,
	CONSTRAINT "study_permissions_user_id_study_id_pk" PRIMARY KEY("user_id","study_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "users_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"nickname" text DEFAULT '' NOT NULL,
	"fname" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"is_phone_enabled" boolean DEFAULT false NOT NULL,
	"country_dial_code" text DEFAULT '' NOT NULL,
	"role" text DEFAULT 'researcher' NOT NULL,
	"scope" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_temporary_password" boolean DEFAULT false NOT NULL,
	"has_consented" boolean DEFAULT true NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"last_login" timestamp with time zone,
	"utc_offset_minutes" integer,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_username_unique" UNIQUE("username")
);
--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participants" ADD CONSTRAINT "participants_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_permissions" ADD CONSTRAINT "site_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_permissions" ADD CONSTRAINT "site_permissions_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_permissions" ADD CONSTRAINT "study_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_permissions" ADD CONSTRAINT "study_permissions_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "participants_study_site_idx" ON "participants" USING btree ("study_id","site_id");--> statement-breakpoint
CREATE INDEX "sites_study_idx" ON "sites" USING btree ("study_id");