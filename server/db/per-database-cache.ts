/**
 * A bounded cache per database: two databases in one process (the API tests run PGlite and
 * PostgreSQL side by side) may number their rows alike, so what is kept by a row's id is kept
 * apart for each. Past `max` entries for one database the lot is dropped and made again as asked:
 * what it holds (parsed definitions, answer bodies) is derived from rows that never change.
 */
import type { Database } from "./client.ts";

export function perDatabaseCache<Key, Value>(max: number) {
  const byDatabase = new WeakMap<Database, Map<Key, Value>>();
  return {
    get: (db: Database, key: Key): Value | undefined => byDatabase.get(db)?.get(key),
    set(db: Database, key: Key, value: Value) {
      let entries = byDatabase.get(db);
      if (!entries) {
        entries = new Map();
        byDatabase.set(db, entries);
      }
      if (entries.size >= max) entries.clear();
      entries.set(key, value);
    },
  };
}
