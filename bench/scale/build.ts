/**
 * `npm run bench:scale:build`: builds the sponsor-sized PostgreSQL database
 * `clinro_scale` and a demo-sized one, `clinro_scale_demo`, on BENCH_ADMIN_URL
 * (default postgres://postgres@127.0.0.1:5432/postgres). Each is dropped and made again.
 *
 *   clinro_scale        200 sites in 4 studies, 100,000 participants, 1,000,000 clinician
 *                       instrument submissions (10 to 60 answers each), 100,000 completed consents
 *                       with their signings and signatures, 5,000,000 audit rows in one valid
 *                       hash chain, 1,000 staff accounts, 50,000 participant events
 *   clinro_scale_demo   the same generator at 3% (8 sites, 3,000 participants, 150,000 audit
 *                       rows...), for the flatness comparison of bench/scale/reads.ts
 *
 * Both hold the same bench site (study 1, site 101) with the same 2,000 participants and their
 * same histories, and the same bench user (staff0001@scale.test, a clinical coordinator of that
 * site, password SCALE_PASSWORD below): a read call there has the same answer on both databases.
 *
 * Reproducible: there is no random(): every choice is hashint8 of the row's number and a salt,
 * and every time is counted from fixed dates (ANCHOR), so two builds hold the same rows.
 *
 * How: the schema comes from the migrations (openDatabase().migrate()); the rows are written by
 * INSERT ... SELECT over generate_series with session_replication_role = replica (no audit or
 * foreign-key triggers: the generator keeps every reference itself) and the secondary indexes
 * dropped meanwhile, then made again. The audit trail is what the audit trigger would have
 * written for those rows (to_jsonb of each row, insert and completion update), plus sign-in
 * events, staged, then chained in one pass by a window aggregate that computes exactly
 * clinro_audit_row_hash (migration 0008) row after row; `clinro audit verify` checks it.
 *
 * Choices where the issue is silent: a submission's payload carries the survey copy's order
 * and its answer records but an empty questions record (the full copy of the definition would
 * multiply the table by four and no read call reads it); drawn signatures name their image file
 * but the PNGs are not stored (uploaded_files stays empty).
 */
import postgres from "postgres";
import { openDatabase } from "../../server/db/client.ts";
import { hashPassword } from "../../server/auth/passwords.ts";
import { FIRST_NAMES_F, FIRST_NAMES_M } from "../../server/seed/demo-people.ts";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SCALE_INSTRUMENTS, anchorLabel, itemId, itemLabel, scaleDefinition } from "./definitions.ts";

export const SCALE_PASSWORD = "Scale&Bench28";
export const BENCH_USERNAME = "staff0001@scale.test";
export const BENCH_STUDY_ID = 1;
export const BENCH_SITE_ID = 101;
export const BENCH_SITE_PARTICIPANTS = 2_000;
export const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
export const SCALE_DATABASES = { full: "clinro_scale", demo: "clinro_scale_demo" } as const;

export function databaseUrl(name: string) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The fixed moment the histories are counted back from. */
const ANCHOR = "2026-11-20T09:00:00Z";
/** The audit trail spans the three years before ANCHOR. */
const AUDIT_START = "2023-11-20T09:00:00Z";
const ANSWER_VARIANTS = 64;
const STUDIES = 4;

const here = path.dirname(fileURLToPath(import.meta.url));
const consentDefinition = (file: string) =>
  readFileSync(path.join(here, "../../server/seed/consents", file), "utf8");

export type ScaleSize = {
  sitesPerStudy: number;
  participants: number;
  staff: number;
  audit: number;
  events: number;
};

export const FULL_SIZE: ScaleSize = {
  sitesPerStudy: 50,
  participants: 100_000,
  staff: 1_000,
  audit: 5_000_000,
  events: 50_000,
};
export const DEMO_SIZE: ScaleSize = {
  sitesPerStudy: 2,
  participants: 3_000,
  staff: 40,
  audit: 150_000,
  events: 1_500,
};

/** hashint8 of a row number and a salt, as a non-negative int: the generator's only "randomness". */
const h = (expression: string, salt: number) =>
  `(hashint8(((${expression})::bigint * 1000003 + ${salt})) & 2147483647)`;

const LAST_STARTS = [
  "Ander",
  "Bak",
  "Carv",
  "Dub",
  "Erik",
  "Fern",
  "Garc",
  "Hadd",
  "Ivan",
  "John",
  "Kowal",
  "Lind",
  "Mart",
  "Nakam",
  "Ocon",
  "Pat",
  "Quint",
  "Ross",
  "Schm",
  "Thom",
];
const LAST_ENDS = [
  "son",
  "shi",
  "alho",
  "ois",
  "sen",
  "andez",
  "ia",
  "ad",
  "ova",
  "ston",
  "ski",
  "qvist",
  "inez",
  "ura",
  "nor",
  "el",
  "ero",
  "i",
  "idt",
  "pson",
];

const textArray = (values: string[]) =>
  `ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(",")}]::text[]`;

type Step = (label: string, statement: string) => Promise<void>;

export async function buildScaleDatabase(name: string, size: ScaleSize, log = console.log) {
  const started = performance.now();
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.unsafe(`CREATE DATABASE "${name}"`);
  await admin.end({ timeout: 5 });
  const url = databaseUrl(name);
  const handle = await openDatabase({ kind: "postgres", url, maxConnections: 2 });
  await handle.migrate();
  await handle.close();

  const db = postgres(url, { max: 1, onnotice: () => {} });
  const step: Step = async (label, statement) => {
    const t = performance.now();
    await db.unsafe(statement);
    log(`  ${name}: ${label} (${((performance.now() - t) / 1000).toFixed(1)} s)`);
  };
  await db.unsafe(`SET synchronous_commit = off`);
  await db.unsafe(`SET session_replication_role = replica`);
  await db.unsafe(`SET maintenance_work_mem = '512MB'`);
  await db.unsafe(`SET work_mem = '64MB'`);
  await db.unsafe(`SET TimeZone = 'UTC'`);
  // Faster to compress than the default pglz; a storage choice that reads back the same.
  await db.unsafe(`SET default_toast_compression = 'lz4'`);

  // Secondary indexes (not constraints) of the bulk-loaded tables are made again at the end.
  const bulkTables = [
    "participants",
    "instrument_instances",
    "instrument_submissions",
    "consent_participants",
    "consent_signings",
    "consent_signatures",
    "participant_events",
    "announcement_reads",
  ];
  const indexes = await db<{ indexname: string; indexdef: string }[]>`
    select i.indexname, i.indexdef from pg_indexes i
    where i.schemaname = current_schema() and i.tablename = any(${bulkTables})
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`;
  for (const index of indexes) await db.unsafe(`DROP INDEX "${index.indexname}"`);

  const nSites = STUDIES * size.sitesPerStudy;
  const nps = size.sitesPerStudy;
  const staffPerSite = Math.floor(size.staff / nSites);
  // Site index si (0-based over all sites) is study si / nps + 1, site id study * 100 + si % nps + 1.
  const siteOf = (si: string) => `((${si}) / ${nps} + 1) * 100 + (${si}) % ${nps} + 1`;
  const studyOf = (si: string) => `((${si}) / ${nps} + 1)`;
  const siteIndexOfSite = (siteId: string) => `(((${siteId}) / 100 - 1) * ${nps} + (${siteId}) % 100 - 1)`;
  // A staff member of the site (users 1..staff: user u works at site index (u - 1) % nSites).
  const staffOf = (siteId: string, pick: string) =>
    `(${siteIndexOfSite(siteId)} + 1 + ${nSites} * (${pick} % ${staffPerSite}))`;

  const firstNames = [...FIRST_NAMES_F, ...FIRST_NAMES_M];
  const passwordHash = await hashPassword(SCALE_PASSWORD);

  await step(
    "studies and sites",
    `
    insert into studies (id, name, sms_enabled, new_consent_enabled, config)
    select s, 'SCALE-' || s || ' ' || (array['Depression','Bipolar','Anxiety','Schizophrenia'])[s] || ' study',
      false, true, '{"virtual_visits": true}'::jsonb
    from generate_series(1, ${STUDIES}) s;
    insert into sites (id, study_id, label, tree_level, is_virtual)
    select ${siteOf("si")}, ${studyOf("si")}, 'Site ' || lpad((si % ${nps} + 1)::text, 3, '0') || ' of study ' || ${studyOf("si")}, 4, false
    from generate_series(0, ${nSites - 1}) si;`,
  );

  await step(
    `${size.staff} staff accounts and their permissions`,
    `
    insert into users (id, username, password_hash, name, nickname, fname, role, scope, has_consented, last_login, created_at)
    overriding system value
    select u, 'staff' || lpad(u::text, 4, '0') || '@scale.test', '${passwordHash}',
      (${textArray(firstNames)})[1 + ${h("u", 11)} % ${firstNames.length}] || ' ' ||
        (${textArray(LAST_STARTS)})[1 + ${h("u", 12)} % 20] || (${textArray(LAST_ENDS)})[1 + ${h("u", 13)} % 20],
      '', (${textArray(firstNames)})[1 + ${h("u", 11)} % ${firstNames.length}],
      case when u % 100 = 0 then 'studyManager' else 'researcher' end,
      '{}'::text[], true,
      timestamptz '${ANCHOR}' - (${h("u", 14)} % 72) * interval '1 hour',
      timestamptz '${AUDIT_START}' + (u % 300) * interval '1 day'
    from generate_series(1, ${size.staff}) u;
    insert into study_permissions (user_id, study_id, role, scope)
    select u, ${studyOf(`(u - 1) % ${nSites}`)},
      (array['16','11','12','13'])[1 + ((u - 1) / ${nSites}) % 4], array['ca','cp']
    from generate_series(1, ${size.staff}) u;
    insert into site_permissions (user_id, site_id)
    select u, ${siteOf(`(u - 1) % ${nSites}`)} from generate_series(1, ${size.staff}) u
    union all
    -- Every 25th user also monitors the other sites of their study.
    select u, ${studyOf(`(u - 1) % ${nSites}`)} * 100 + k
    from generate_series(1, ${size.staff}) u, generate_series(1, ${nps}) k
    where u % 25 = 0 and ${studyOf(`(u - 1) % ${nSites}`)} * 100 + k <> ${siteOf(`(u - 1) % ${nSites}`)};`,
  );

  // Participants 1..2000 are the bench site's; the rest are spread over the other sites.
  const otherSite = `(1 + ${h("p", 21)} % ${nSites - 1})`;
  await step(
    `${size.participants} participants`,
    `
    create temporary table scale_participant_sites as
    select p, case when p <= ${BENCH_SITE_PARTICIPANTS} then ${BENCH_SITE_ID} else ${siteOf(otherSite)} end as site_id
    from generate_series(1, ${size.participants}) p;
    insert into participants (id, study_id, site_id, fname, lname, gender, date_of_birth, subject_id, email,
      first_login_timestamp, last_updated, enrolled_at)
    overriding system value
    select p, site_id / 100, site_id,
      (${textArray(firstNames)})[1 + ${h("p", 22)} % ${firstNames.length}],
      (${textArray(LAST_STARTS)})[1 + ${h("p", 23)} % 20] || (${textArray(LAST_ENDS)})[1 + ${h("p", 24)} % 20],
      (array['m','f','o'])[1 + ${h("p", 25)} % 3],
      date '1940-01-01' + ${h("p", 26)} % 25000,
      'S' || site_id || '-' || lpad(p::text, 6, '0'),
      case when ${h("p", 27)} % 3 = 0 then 'p' || p || '@participants.scale.test' end,
      null,
      timestamptz '${ANCHOR}' - (30 + ${h("p", 28)} % 900) * interval '1 day',
      timestamptz '${ANCHOR}' - (30 + ${h("p", 28)} % 900) * interval '1 day'
    from scale_participant_sites;
    analyze scale_participant_sites;`,
  );

  await step(
    "instruments and definitions",
    `
    insert into instruments (id, study_id, name, display_name, instrument_type, slug, permissions, visible_days,
      metadata, created_at)
    overriding system value
    select (s - 1) * 6 + k, s, d.name, d.display_name, d.instrument_type, d.slug, '{16,11,12,13}'::text[],
      d.visible_days, d.metadata, timestamptz '${AUDIT_START}'
    from generate_series(1, ${STUDIES}) s,
      jsonb_to_recordset($json$${JSON.stringify([
        ...SCALE_INSTRUMENTS.map((instrument, index) => ({
          k: index + 1,
          name: instrument.name,
          display_name: instrument.displayName,
          instrument_type: "CLINRO",
          slug: instrument.slug,
          visible_days: instrument.visibleDays,
          metadata: {
            display_name: instrument.displayName,
            schedule: { recurring: { scheme: instrument.scheme } },
          },
        })),
        {
          k: 6,
          name: "Study news",
          display_name: "Study news",
          instrument_type: "ANNOUNCEMENT",
          slug: "study-news",
          visible_days: 1,
          metadata: { display_name: "Study news" },
        },
      ])}$json$::jsonb)
      as d(k int, name text, display_name text, instrument_type text, slug text, visible_days int, metadata jsonb);
    insert into instrument_definitions (instrument_id, version_number, definition, served_as, created_at)
    select (s - 1) * 6 + d.k, 1, d.definition, 'json', timestamptz '${AUDIT_START}'
    from generate_series(1, ${STUDIES}) s,
      jsonb_to_recordset($json$${JSON.stringify(
        SCALE_INSTRUMENTS.map((instrument, index) => ({
          k: index + 1,
          definition: scaleDefinition(instrument),
        })),
      )}$json$::jsonb) as d(k int, definition jsonb);
    select setval(pg_get_serial_sequence('instruments', 'id'), (select max(id) from instruments));`,
  );

  // The answer records of ANSWER_VARIANTS ways of filling each instrument, with their totals.
  const answerSets = SCALE_INSTRUMENTS.flatMap((instrument, index) =>
    Array.from({ length: ANSWER_VARIANTS }, (_, variant) => {
      let total = 0;
      const answers = Array.from({ length: instrument.items }, (_, item) => {
        const choice = (variant * 7 + item * 13 + ((variant * item) % 5)) % 5;
        total += choice;
        return {
          id: itemId(item),
          label: itemLabel(item),
          name: itemId(item),
          type: "select_one",
          required: true,
          state: "ANSWERED",
          answer: [{ label: anchorLabel(choice), value: `c${choice}`, score_value: choice }],
        };
      });
      return { k: index + 1, variant, answers, total };
    }),
  );
  const templates = SCALE_INSTRUMENTS.map((instrument, index) => {
    const definition = scaleDefinition(instrument);
    return {
      k: index + 1,
      head: {
        id: instrument.slug,
        type: "CLINRO",
        title: instrument.name,
        order: definition.order,
        questions: {},
      },
      score: (definition.scores as Record<string, unknown>[])[0],
      items: instrument.items,
      persistent: instrument.scheme === "persistent",
      visible_days: instrument.visibleDays,
      weight_upto: SCALE_INSTRUMENTS.slice(0, index + 1).reduce((sum, item) => sum + item.weight, 0),
    };
  });
  await db.unsafe(`
    create temporary table scale_answer_sets as
    select * from jsonb_to_recordset($json$${JSON.stringify(answerSets)}$json$::jsonb)
      as a(k int, variant int, answers jsonb, total int);
    create temporary table scale_templates as
    select * from jsonb_to_recordset($json$${JSON.stringify(templates)}$json$::jsonb)
      as t(k int, head jsonb, score jsonb, items int, persistent boolean, visible_days int, weight_upto int);
    analyze scale_answer_sets; analyze scale_templates;`);

  // Each participant has 1 to 19 completed instances (10 on average), a week apart, the last one
  // a week before ANCHOR; the instrument of each by weight.
  await step(
    "completed instances",
    `
    create temporary table scale_completed as
    select row_number() over (order by ps.p, j) as id, ps.p, ps.site_id, j, n,
      (select min(t.k) from scale_templates t where t.weight_upto > ${h("ps.p * 32 + j", 31)} % 100) as k,
      timestamptz '${ANCHOR}' - (n - j + 1) * interval '7 days' - (${h("ps.p * 32 + j", 32)} % 12) * interval '1 hour' as start_date,
      ${staffOf("ps.site_id", h("ps.p * 32 + j", 33))} as staff
    from scale_participant_sites ps,
      lateral (select 1 + ${h("ps.p", 34)} % 19 as n) c,
      generate_series(1, c.n) j;
    insert into instrument_instances (id, instrument_id, participant_id, start_date, expiration, completion, who_completed)
    overriding system value
    select c.id, (c.site_id / 100 - 1) * 6 + c.k, c.p, c.start_date,
      case when t.persistent then null else c.start_date + t.visible_days * interval '1 day' end,
      c.start_date + (1 + ${h("c.id", 35)} % 48) * interval '1 hour' + (${h("c.id", 36)} % 3600) * interval '1 second',
      c.staff
    from scale_completed c join scale_templates t on t.k = c.k;
    select setval(pg_get_serial_sequence('instrument_instances', 'id'), (select max(id) from instrument_instances));
    analyze scale_completed;`,
  );

  await step(
    "submissions",
    `
    insert into instrument_submissions (id, instrument_id, participant_id, instrument_instance_id, client_instance_id,
      version_number, submitted_by, completed_at, payload, scores, created_at)
    overriding system value
    select i.id, i.instrument_id, i.participant_id, i.id, i.id::text, 1, i.who_completed, i.completion,
      t.head || jsonb_build_object(
        'answers', a.answers,
        'scores', jsonb_build_array(t.score || jsonb_build_object('final_value', a.total)),
        'completed_by', i.who_completed,
        'completion', to_char(i.completion at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'identity', 'staff' || lpad(i.who_completed::text, 4, '0') || '@scale.test',
        'state', 'COMPLETE',
        'start_time', to_char((i.completion - interval '25 minutes') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'version', '3.76.0',
        'version_number', 1,
        'attachments', '[]'::jsonb,
        'instrument_id', i.instrument_id,
        'browser_info', 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'instance_id', i.id,
        'instrument_instance_id', i.id),
      jsonb_build_array(t.score || jsonb_build_object('final_value', a.total)),
      i.completion + interval '2 seconds'
    from instrument_instances i
    join scale_completed c on c.id = i.id
    join scale_templates t on t.k = c.k
    join scale_answer_sets a on a.k = c.k and a.variant = i.id % ${ANSWER_VARIANTS};`,
  );

  // Open instances: one or two per participant, started in the week before ANCHOR; the weekly
  // ones expire far ahead so that they stay open whenever the reads run.
  await step(
    "open instances",
    `
    insert into instrument_instances (instrument_id, participant_id, start_date, expiration)
    select (ps.site_id / 100 - 1) * 6 + t.k, ps.p,
      timestamptz '${ANCHOR}' - (${h("ps.p * 4 + o", 41)} % 7) * interval '1 day',
      case when t.persistent then null else timestamptz '2030-01-01T00:00:00Z' end
    from scale_participant_sites ps
    cross join generate_series(1, 2) o
    join scale_templates t on t.k = 1 + ${h("ps.p * 4 + o", 42)} % 5
    where o = 1 or ${h("ps.p", 43)} % 2 = 0
    order by ps.p, o;`,
  );

  await step(
    "consents, their participants, signings and signatures",
    `
    insert into consents (id, study_id, title, type, version, date_deployed, definition_key)
    overriding system value
    select (s - 1) * 2 + c, s, case c when 1 then 'Main study consent' else 'Genetic sub-study consent' end,
      'CONSENT', 1, timestamptz '${AUDIT_START}' + interval '10 days',
      case c when 1 then 'mdd301-main-consent' else 'mdd301-genetic-substudy' end
    from generate_series(1, ${STUDIES}) s, generate_series(1, 2) c;
    select setval(pg_get_serial_sequence('consents', 'id'), (select max(id) from consents));
    insert into consent_versions (consent_id, version, definition, published_at)
    select (s - 1) * 2 + c, 1,
      case c when 1 then $json$${consentDefinition("mdd301-main-consent.json")}$json$::jsonb
        else $json$${consentDefinition("mdd301-genetic-substudy.json")}$json$::jsonb end,
      timestamptz '${AUDIT_START}' + interval '10 days'
    from generate_series(1, ${STUDIES}) s, generate_series(1, 2) c;
    insert into consent_participants (consent_id, participant_id, version, status)
    select (ps.site_id / 100 - 1) * 2 + 1, ps.p, 1,
      case when r < 90 then 'complete' when r < 93 then 'awaiting_participant' when r < 96 then 'awaiting_clinro'
        when r < 98 then 'awaiting_witness' else 'declined' end
    from scale_participant_sites ps, lateral (select ${h("ps.p", 51)} % 100 as r) x
    union all
    select (ps.site_id / 100 - 1) * 2 + 2, ps.p, 1,
      case when r < 50 then 'complete' when r < 70 then 'awaiting_participant' when r < 85 then 'awaiting_clinro'
        else 'declined' end
    from scale_participant_sites ps, lateral (select ${h("ps.p", 53)} % 100 as r) x
    where ${h("ps.p", 52)} % 100 < 20
    order by 2, 1;
    create temporary table scale_signed as
    select row_number() over (order by cp.participant_id, cp.consent_id) as id, cp.consent_id, cp.participant_id,
      p.fname || ' ' || p.lname as printed, ${staffOf("p.site_id", h("cp.participant_id * 2 + cp.consent_id", 54))} as staff,
      p.last_updated + interval '1 hour' + (cp.consent_id % 2) * interval '20 days' as completion
    from consent_participants cp join participants p on p.id = cp.participant_id
    where cp.status = 'complete';
    insert into consent_signings (id, consent_id, participant_id, version, user_id, endpoint, records, completion,
      browser_info, received_at)
    overriding system value
    select s.id, s.consent_id, s.participant_id, 1, s.staff, 'clinro',
      jsonb_build_array(
        jsonb_build_object('id', 'decision', 'label', 'Do you agree to take part?', 'name', 'decision',
          'type', 'select_one', 'required', true, 'state', 'ANSWERED',
          'answer', jsonb_build_array(jsonb_build_object('label', 'I agree', 'value', 'yes', 'choice_id', 'yes'))),
        jsonb_build_object('id', 'participant_signature', 'label', 'Participant signature', 'name', 'participant_signature',
          'type', 'signature', 'required', true, 'state', 'ANSWERED',
          'answer', jsonb_build_array(jsonb_build_object('label', s.printed, 'value', 'signature-' || s.id || '.png',
            'signature_type', 'drawn', 'signed_date', to_char(s.completion at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00'))),
        jsonb_build_object('id', 'clinician_statement', 'label', 'I explained the study and answered the questions.',
          'name', 'clinician_statement', 'type', 'checkbox', 'required', true, 'state', 'ANSWERED',
          'answer', jsonb_build_array(jsonb_build_object('label', 'Confirmed', 'value', true))),
        jsonb_build_object('id', 'clinician_signature', 'label', 'Clinician signature', 'name', 'clinician_signature',
          'type', 'signature', 'required', true, 'state', 'ANSWERED',
          'answer', jsonb_build_array(jsonb_build_object('label', u.name, 'value', u.name,
            'signature_type', 'typed', 'signed_date', to_char(s.completion at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00')))),
      s.completion,
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      s.completion + interval '1 second'
    from scale_signed s join users u on u.id = s.staff;
    insert into consent_signatures (signing_id, consent_id, participant_id, version, question_id, role, meaning,
      printed_name, signature_type, value, signer_user_id, captured_at, received_at, time_zone, hash)
    select s.id, s.consent_id, s.participant_id, 1, x.question_id, x.role, x.meaning, x.printed, x.signature_type,
      x.value, x.signer, to_char(s.completion at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') || '+00:00',
      s.completion + interval '1 second', 'UTC',
      encode(sha256(convert_to(s.id || '|' || x.question_id || '|' || x.printed || '|' || x.value, 'UTF8')), 'hex')
    from scale_signed s join users u on u.id = s.staff,
      lateral (values
        ('participant_signature', 'participant', 'I consent to take part in this study', s.printed, 'drawn',
          'signature-' || s.id || '.png', null::integer),
        ('clinician_signature', 'clinro', 'I obtained the participant''s informed consent', u.name, 'typed', u.name, s.staff)
      ) as x(question_id, role, meaning, printed, signature_type, value, signer)
    order by s.id, x.role desc;`,
  );

  await step(
    `${size.events} participant events, announcements and their reads`,
    `
    insert into participant_events (user_id, participant_id, study_id, type, occurred_at, info, platform, received_at)
    select ${staffOf("ps.site_id", h("e", 61))}, ps.p, ps.site_id / 100,
      (array['delivered','seen','completed','submitFailed','seen'])[1 + e % 5],
      timestamptz '${ANCHOR}' - (${h("e", 62)} % 525600) * interval '1 minute',
      jsonb_build_object('instrument_id', (ps.site_id / 100 - 1) * 6 + 1 + e % 5, 'instance_id', e, 'platform', 'web'),
      'web', timestamptz '${ANCHOR}' - (${h("e", 62)} % 525600) * interval '1 minute' + interval '3 seconds'
    from generate_series(1, ${size.events}) e
    join scale_participant_sites ps on ps.p = 1 + ${h("e", 63)} % ${size.participants};
    insert into announcements (study_id, site_id, title, content, author_user_id, sent_at)
    select s, null, 'Study news ' || a, '<p>Monthly update ' || a || ' of the study: visit windows, supplies and contacts.</p>',
      ${staffOf("s * 100 + 1", "0")}, timestamptz '${AUDIT_START}' + a * interval '27 days'
    from generate_series(1, ${STUDIES}) s, generate_series(1, 40) a
    union all
    select ${studyOf("si")}, ${siteOf("si")}, 'Site note ' || a, '<p>Note ' || a || ' to the staff of this site.</p>',
      ${staffOf(siteOf("si"), "0")}, timestamptz '${AUDIT_START}' + (a * 300 + si % 200) * interval '1 day'
    from generate_series(0, ${nSites - 1}) si, generate_series(1, 3) a
    order by 6;
    insert into announcement_reads (announcement_id, user_id, read_at)
    select a.id, sp.user_id, a.sent_at + (1 + ${h("a.id * 4096 + sp.user_id", 64)} % 96) * interval '1 hour'
    from announcements a join study_permissions sp on sp.study_id = a.study_id
    where (a.site_id is null or exists (select 1 from site_permissions x where x.user_id = sp.user_id and x.site_id = a.site_id))
      and ${h("a.id * 4096 + sp.user_id", 65)} % 2 = 0;`,
  );

  await step(
    "identity sequences",
    `
    select setval(pg_get_serial_sequence(table_name, column_name), coalesce(max_id, 1))
    from (values
      ('users', 'id', (select max(id) from users)),
      ('participants', 'id', (select max(id) from participants)),
      ('instrument_instances', 'id', (select max(id) from instrument_instances)),
      ('instrument_submissions', 'id', (select max(id) from instrument_submissions)),
      ('consent_signings', 'id', (select max(id) from consent_signings))
    ) as v(table_name, column_name, max_id);`,
  );

  await buildAuditTrail(db, size, step);

  for (const index of indexes) await step(`index ${index.indexname}`, index.indexdef);
  // As autovacuum leaves a live database (PostgreSQL 13 and later vacuum insert-only tables too):
  // visibility maps set, so that index-only scans read no heap (the consents list's missing
  // counts read 1,400 heap pages without it: 9 ms instead of 3).
  await step("vacuum analyze", "vacuum analyze");
  await db.end({ timeout: 5 });
  log(`${name}: built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * The audit trail: what the trigger writes for the rows above (one insert row for each, one update
 * row for each completed instance), then sign-in events up to size.audit rows; chained.
 */
async function buildAuditTrail(db: postgres.Sql, size: ScaleSize, step: Step) {
  await db.unsafe(`
    create unlogged table scale_audit_stage (
      id bigint not null, actor_user_id integer, action text not null, table_name text,
      row_key jsonb, old_values jsonb, new_values jsonb, details jsonb);
    create temporary sequence scale_audit_seq;`);
  const redacted = "clinro_audit_redacted_columns()";
  const inserts = (table: string, key: string[], actor: string) =>
    step(
      `audit rows of ${table}`,
      `insert into scale_audit_stage
       select nextval('scale_audit_seq'), ${actor}, 'insert', '${table}',
         jsonb_build_object(${key.map((column) => `'${column}', t.${column}`).join(", ")}),
         null, to_jsonb(t) - ${redacted}, null
       from ${table} t`,
    );
  await inserts("users", ["id"], "null");
  await inserts("study_permissions", ["user_id", "study_id"], "null");
  await inserts("site_permissions", ["user_id", "site_id"], "null");
  await inserts("participants", ["id"], "null");
  await inserts("instrument_instances", ["id"], "null");
  await step(
    "audit rows of instance completions",
    `insert into scale_audit_stage
     select nextval('scale_audit_seq'), t.who_completed, 'update', 'instrument_instances',
       jsonb_build_object('id', t.id),
       to_jsonb(t) || '{"completion": null, "who_completed": null}'::jsonb, to_jsonb(t), null
     from instrument_instances t where t.completion is not null`,
  );
  await inserts("instrument_submissions", ["id"], "t.submitted_by");
  await inserts("consent_participants", ["consent_id", "participant_id"], "null");
  await inserts("consent_signings", ["id"], "t.user_id");
  await inserts("consent_signatures", ["id"], "null");
  await inserts("participant_events", ["id"], "t.user_id");
  await inserts("announcements", ["id"], "t.author_user_id");
  await inserts("announcement_reads", ["announcement_id", "user_id"], "t.user_id");
  const [staged] = await db<{ count: string }[]>`select count(*) as count from scale_audit_stage`;
  const count = Number(staged?.count ?? 0);
  const signIns = Math.max(0, size.audit - count);
  await step(
    `${signIns} sign-in audit events`,
    `insert into scale_audit_stage
     select nextval('scale_audit_seq'), 1 + ${h("e", 71)} % ${size.staff},
       case when e % 20 = 0 then 'sign_in_failed' else 'sign_in' end, null, null, null, null,
       case when e % 20 = 0 then jsonb_build_object('address', '10.' || e % 200 || '.' || e % 7 || '.' || e % 250,
         'username', 'staff' || lpad((1 + ${h("e", 71)} % ${size.staff})::text, 4, '0') || '@scale.test', 'reason', 'wrong_password')
       else jsonb_build_object('address', '10.' || e % 200 || '.' || e % 7 || '.' || e % 250) end
     from generate_series(1, ${signIns}) e`,
  );
  // The chain: running SHA-256 over the rows in id order, each hashed as
  // clinro_audit_row_hash(prev_hash, row) does; "at" spreads the rows over three years.
  const total = count + signIns;
  await step(
    "audit chain functions",
    `
    create function pg_temp.scale_chain_step(state text, content text) returns text
    language plpgsql immutable as $$ begin return encode(sha256(convert_to(state || content, 'UTF8')), 'hex'); end $$;
    create aggregate pg_temp.scale_chain(text) (sfunc = pg_temp.scale_chain_step, stype = text, initcond = '');
    create index on scale_audit_stage (id);`,
  );
  await step(
    `${total} chained audit rows`,
    `
    set enable_sort = off;
    insert into audit_log (id, at, actor_user_id, action, table_name, row_key, old_values, new_values, details,
      prev_hash, hash)
    select id, at, actor_user_id, action, table_name, row_key, old_values, new_values, details,
      coalesce(lag(hash) over (order by id), ''), hash
    from (
      select c.*, pg_temp.scale_chain(jsonb_build_object(
        'id', c.id,
        'at', to_char(c.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'actor_user_id', c.actor_user_id, 'action', c.action, 'table_name', c.table_name,
        'row_key', c.row_key, 'old_values', c.old_values, 'new_values', c.new_values, 'details', c.details
      )::text) over (order by c.id) as hash
      from (
        select s.*, timestamptz '${AUDIT_START}' + s.id * (interval '1095 days' / ${total}) as at
        from scale_audit_stage s
      ) c
    ) chained;
    reset enable_sort;
    drop table scale_audit_stage;`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv[2] ?? "all";
  if (which === "all" || which === "demo") await buildScaleDatabase(SCALE_DATABASES.demo, DEMO_SIZE);
  if (which === "all" || which === "full") await buildScaleDatabase(SCALE_DATABASES.full, FULL_SIZE);
}
