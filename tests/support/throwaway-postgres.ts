/**
 * A PostgreSQL database of one test file's or bench run's own, made on the server that
 * `adminUrl` points at and dropped afterwards (even with connections still open). Made empty,
 * or as a copy of `template` (a database nobody is connected to).
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";

export async function createThrowawayDatabase(adminUrl: string, prefix = "test", template?: string) {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(
      template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`,
    );
  } finally {
    await admin.end({ timeout: 5 });
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const dropper = postgres(adminUrl, { max: 1, onnotice: () => {} });
      try {
        await dropper.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end({ timeout: 5 });
      }
    },
  };
}
