CREATE TABLE "signing_attempts" (
	"jti" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"attempts" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "signing_attempts" ADD CONSTRAINT "signing_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Audited as every table (0008): a cap reached and cleared leaves its rows in the trail.
SELECT clinro_attach_audit('signing_attempts');
