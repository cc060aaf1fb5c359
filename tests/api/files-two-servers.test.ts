/**
 * Uploaded files across two real server processes on one PostgreSQL: a signature uploaded
 * through one server is signed with and printed into the consent PDF by the other, and the
 * upload's Idempotency-Key holds across both. Needs TEST_DATABASE_URL.
 */
import { constants, createPublicKey, publicEncrypt, randomUUID } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  consentDefinitionResponse,
  consentSubmissionResponse,
  type ConsentDefinitionResponse,
} from "../../core/contracts/consent-schemas.ts";
import { fileUploadResponse } from "../../core/contracts/files.ts";
import { signingKeyResponse } from "../../core/contracts/signing-key.ts";
import type { AnswerEntry, AnswerRecord } from "../../core/contracts/survey-answers.ts";
import { makeRecord } from "../../core/survey-engine/answer-state.ts";
import { openDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import {
  consentParticipants,
  consents,
  participants,
  uploadedFileContents,
  uploadedFiles,
} from "../../server/db/schema.ts";
import { DEMO_PASSWORD } from "../../server/seed/demo.ts";
import { startServerProcess, stopServerProcess, type ServerProcess } from "../support/server-process.ts";
import { signaturePng } from "../support/signature-png.ts";
import { createThrowawayDatabase } from "../support/throwaway-postgres.ts";

const adminUrl = process.env.TEST_DATABASE_URL || undefined;
const JWT_SECRET = "two-servers-files-signing-secret-0123456789";
const MAIN = "Main Study Informed Consent";
const CAPTURED_AT = "2026-11-22T09:15:00-05:00";

describe.skipIf(!adminUrl)(
  adminUrl
    ? "uploaded files across two server processes on one PostgreSQL"
    : "uploaded files across two server processes (skipped: TEST_DATABASE_URL is not set)",
  () => {
    let drop: (() => Promise<void>) | undefined;
    let first: ServerProcess | undefined;
    let second: ServerProcess | undefined;
    let handle: DatabaseHandle | undefined;

    beforeAll(async () => {
      const database = await createThrowawayDatabase(adminUrl!, "files");
      drop = database.drop;
      // One after the other: the first seeds the empty database, the second finds it seeded.
      first = await startServerProcess({ databaseUrl: database.url, jwtSecret: JWT_SECRET });
      second = await startServerProcess({ databaseUrl: database.url, jwtSecret: JWT_SECRET });
      handle = await openDatabase({ kind: "postgres", url: database.url, maxConnections: 2 });
    }, 180_000);

    afterAll(async () => {
      await handle?.close();
      await stopServerProcess(first);
      await stopServerProcess(second);
      await drop?.();
    }, 60_000);

    async function signIn(server: ServerProcess, username: string) {
      const response = await fetch(`${server.url}/control/clinro/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username, password: DEMO_PASSWORD }),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { token: string }).token;
    }

    async function call(server: ServerProcess, token: string, method: string, url: string, body?: unknown) {
      return fetch(`${server.url}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined
            ? {}
            : { "content-type": "application/json", version: "010", "idempotency-key": randomUUID() }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    }

    async function upload(
      server: ServerProcess,
      token: string,
      participantId: number,
      fileName: string,
      key: string,
    ) {
      const form = new FormData();
      form.set(
        "upload_file",
        new Blob([Buffer.from(signaturePng(317, 83))], { type: "image/png" }),
        fileName,
      );
      form.set("file_name", fileName);
      form.set("platform", "clinro");
      form.set("module_name", "consent");
      form.set("participant_id", String(participantId));
      return fetch(`${server.url}/control/file/upload`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "idempotency-key": key },
        body: form,
      });
    }

    async function signing(server: ServerProcess, token: string) {
      const key = signingKeyResponse.parse(
        await (await call(server, token, "GET", "/control/v2/signing-key")).json(),
      );
      const ciphertext = publicEncrypt(
        {
          key: createPublicKey({ key: key.jwk, format: "jwk" }),
          padding: constants.RSA_PKCS1_OAEP_PADDING,
          oaepHash: "sha256",
        },
        Buffer.from(DEMO_PASSWORD, "utf8"),
      );
      return {
        kid: key.kid,
        password_ciphertext: ciphertext.toString("base64"),
        captured_at: CAPTURED_AT,
        time_zone: "America/New_York",
      };
    }

    const record = (
      current: ConsentDefinitionResponse,
      questionId: string,
      entries: AnswerEntry[],
    ): AnswerRecord =>
      makeRecord(current.definition.questions[questionId]!, entries, new Date("2026-11-22T14:15:00.000Z"));
    const typed = (current: ConsentDefinitionResponse, questionId: string, name: string) =>
      record(current, questionId, [
        { label: name, value: name, question: questionId, signature_type: "text", signed_date: CAPTURED_AT },
      ]);

    it("uploads through one server; the other signs with the file and prints it in the PDF", async () => {
      const db = handle!.db;
      const [main] = await db.select().from(consents).where(eq(consents.title, MAIN));
      const [person] = await db
        .insert(participants)
        .values({ studyId: 101, siteId: 1011, fname: "Ana", lname: "Two Servers", subjectId: "MDD-2SRV" })
        .returning({ id: participants.id });
      const participantId = person!.id;
      await db.insert(consentParticipants).values({
        consentId: main!.id,
        participantId,
        version: main!.version,
        status: "awaiting_participant",
      });

      const onFirst = await signIn(first!, "coordinator@demo.test");
      const onSecond = await signIn(second!, "coordinator@demo.test");
      const witness = await signIn(second!, "witness@demo.test");

      // The upload, through the first server; the same key through the second answers the same.
      const fileName = `consent_${participantId}_participant_signature_${Date.now()}.png`;
      const key = randomUUID();
      const uploaded = await upload(first!, onFirst, participantId, fileName, key);
      expect(uploaded.status).toBe(200);
      const answer = fileUploadResponse.parse(await uploaded.json());
      const replay = await upload(second!, onSecond, participantId, fileName, key);
      expect(replay.status).toBe(200);
      expect(replay.headers.get("idempotent-replayed")).toBe("true");
      expect(fileUploadResponse.parse(await replay.json())).toEqual(answer);
      const stored = await db
        .select({ id: uploadedFiles.id, size: uploadedFiles.sizeBytes })
        .from(uploadedFiles)
        .innerJoin(uploadedFileContents, eq(uploadedFileContents.fileId, uploadedFiles.id))
        .where(and(eq(uploadedFiles.participantId, participantId), eq(uploadedFiles.fileName, fileName)));
      expect(stored).toEqual([{ id: answer.id, size: answer.size }]);
      // Nothing on either server's disk.
      for (const server of [first!, second!]) {
        expect(await readdir(path.join(server.dataDir, "files")).catch(() => [])).toEqual([]);
      }

      // The participant and clinician session, through the second server, names the file.
      const definitionUrl = `/control/v2/clinro/consent?consent_id=${main!.id}&version=${main!.version}&ptp_id=${participantId}`;
      const current = consentDefinitionResponse.parse(
        await (await call(second!, onSecond, "GET", definitionUrl)).json(),
      );
      const decision = current.definition.questions.decision!.choices!.agree!;
      const session = await call(
        second!,
        onSecond,
        "POST",
        `/control/v2/clinro/participant/${participantId}/consent`,
        {
          consent_id: current.consent_id,
          consent_version: current.consent_version,
          records: [
            record(current, "decision", [{ label: decision.label, value: "agree", choice_id: "agree" }]),
            record(current, "participant_signature", [
              {
                label: "Ana Two Servers",
                value: fileName,
                question: "participant_signature",
                signature_type: "draw",
                signed_date: CAPTURED_AT,
              },
            ]),
            typed(current, "clinician_signature", "Carmen Ortiz"),
          ],
          completion: "2026-11-22T14:20:00.000Z",
          browser_info: "vitest",
          signing: await signing(second!, onSecond),
        },
      );
      expect(session.status, await session.clone().text()).toBe(200);
      expect(consentSubmissionResponse.parse(await session.json()).status).toBe("awaiting_witness");

      const witnessCurrent = consentDefinitionResponse.parse(
        await (await call(second!, witness, "GET", definitionUrl)).json(),
      );
      const witnessed = await call(
        second!,
        witness,
        "POST",
        `/control/v2/witness/participant/${participantId}/consent`,
        {
          consent_id: witnessCurrent.consent_id,
          consent_version: witnessCurrent.consent_version,
          records: [typed(witnessCurrent, "witness_signature", "Grace Mensah")],
          completion: "2026-11-22T14:30:00.000Z",
          browser_info: "vitest",
          signing: await signing(second!, witness),
        },
      );
      expect(witnessed.status, await witnessed.clone().text()).toBe(200);
      expect(consentSubmissionResponse.parse(await witnessed.json()).status).toBe("complete");

      // The completed PDF, from the second server, embeds the image uploaded through the first.
      const download = await call(
        second!,
        onSecond,
        "GET",
        `/control/v2/studies/101/participants/${participantId}/download?consent_id=${main!.id}`,
      );
      expect(download.status).toBe(200);
      expect(download.headers.get("x-signatures-verified")).toBe("true");
      const pdf = Buffer.from(await download.arrayBuffer()).toString("latin1");
      expect(pdf).toMatch(/\/Subtype \/Image/);
      expect(pdf).toMatch(/\/Width 317\b/);
      expect(pdf).toMatch(/\/Height 83\b/);
    }, 60_000);
  },
);
