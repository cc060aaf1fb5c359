/**
 * Builds the API server: public calls, the authenticated /control/* calls, health, and the app.
 */
import fastifyCompress from "@fastify/compress";
import fastifyMultipart from "@fastify/multipart";
import fastifyWebsocket from "@fastify/websocket";
import { randomBytes } from "node:crypto";
import path from "node:path";
import Fastify, { type FastifyError, type FastifyReply } from "fastify";
import { hasZodFastifySchemaValidationErrors, validatorCompiler } from "fastify-type-provider-zod";
import packageJson from "../package.json" with { type: "json" };
import { openApiCall } from "../core/contracts/calls/account-calls.ts";
import { DOCUMENT_MAX_BYTES } from "../core/contracts/files.ts";
import { SIGNAL_MESSAGE_MAX_BYTES } from "../core/contracts/visits.ts";
import type { AppContext } from "./context.ts";
import { recordForbidden } from "./audit/audit-trail.ts";
import { authenticate } from "./auth/authenticate.ts";
import { answerSerializerCompiler } from "./http/answer-serializer.ts";
import { createBackgroundTasks, type BackgroundTasks } from "./http/background-tasks.ts";
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from "./db/database-unavailable.ts";
import { HttpError, invalidRequest } from "./http/errors.ts";
import { errorSummary } from "./http/error-summary.ts";
import { registerInputBounds } from "./http/input-bounds.ts";
import { openApiDocument } from "./http/openapi.ts";
import { requestLogSerializer } from "./http/log-redaction.ts";
import { registerCall } from "./http/register-call.ts";
import { indexHtmlScriptHashes } from "./http/inline-script-hashes.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { serveApp } from "./http/static-app.ts";
import { loginRoutes, publicLoginRoutes } from "./routes/auth/login.ts";
import { myConsentsRoutes } from "./routes/consents/list-my-consents.ts";
import { consentParticipantsRoutes } from "./routes/consents/consent-participants.ts";
import { consentDocumentRoutes } from "./routes/consents/consent-documents.ts";
import { getBlankConsentRoutes } from "./routes/consents/get-blank-consent.ts";
import { getConsentRoutes } from "./routes/consents/get-consent.ts";
import { postConsentRoutes } from "./routes/consents/post-consent.ts";
import { signingKeyRoutes } from "./routes/consents/signing-key.ts";
import { signingPasswordRoutes } from "./routes/consents/signing-password.ts";
import { announcementRoutes } from "./routes/announcements/announcements.ts";
import { eventRoutes } from "./routes/events/post-events.ts";
import { exportRoutes } from "./routes/exports/export-study.ts";
import { fileRoutes } from "./routes/files/upload-file.ts";
import { healthRoutes } from "./routes/health/healthz.ts";
import { definitionRoutes } from "./routes/instruments/get-definition.ts";
import { instrumentHistoryRoutes } from "./routes/instruments/instrument-history.ts";
import { formsListRoutes } from "./routes/instruments/list-forms.ts";
import { instancesListRoutes } from "./routes/instruments/list-instances.ts";
import { pendingInstrumentsRoutes } from "./routes/instruments/pending-instruments.ts";
import { submissionRoutes } from "./routes/instruments/post-submission.ts";
import { participantRoutes } from "./routes/participants/get-participant.ts";
import { participantSearchRoutes } from "./routes/participants/search.ts";
import { participantListRoutes } from "./routes/participants/list.ts";
import { participantEnrolmentRoutes } from "./routes/participants/enrol-participants.ts";
import { studyRoutes } from "./routes/studies/get-study.ts";
import { changePasswordRoutes } from "./routes/users/change-password.ts";
import { editUserRoutes } from "./routes/users/edit-user.ts";
import { listUsersRoutes } from "./routes/users/list-users.ts";
import { staffRoutes } from "./routes/users/manage-staff.ts";
import { meRoutes } from "./routes/users/me.ts";
import { onboardingRoutes } from "./routes/users/onboarding.ts";
import { passwordSetupRoutes } from "./routes/users/password-setup.ts";
import { joinVisitRoutes } from "./routes/visits/join-visit.ts";
import { listVisitsRoutes } from "./routes/visits/list-visits.ts";
import { roomTokenRoutes } from "./routes/visits/room-token.ts";
import { scheduleVisitRoutes } from "./routes/visits/schedule-visit.ts";
import { signalSocketRoutes } from "./routes/visits/signal-socket.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
import { createRoomTicketSigner } from "./visits/room-tickets.ts";
import { createLocalBus, createPostgresBus } from "./visits/signal-bus.ts";
import { createSignalHub } from "./visits/signal-hub.ts";
import { DEFAULT_VIDEO_SETTINGS } from "./visits/video-settings.ts";
import type { AccountMailDeps } from "./users/account-mail.ts";

declare module "fastify" {
  interface FastifyInstance {
    /** Account mail: the routes send through it; start-up uses it for the demo activation. */
    accountMail: AccountMailDeps;
    /** Work started by requests and not awaited by them (mail); close waits for it. */
    backgroundTasks: BackgroundTasks;
  }
}

const DEFAULT_MAIL_FROM = "ClinRO portal <no-reply@localhost>";
const DEFAULT_PUBLIC_URL = "http://localhost";

export type BuildAppOptions = {
  logLevel?: string;
  /** Where the log goes (default standard output); tests read it. */
  logStream?: { write(line: string): void };
  /** The proxies whose X-Forwarded-For gives request.ip (TRUSTED_PROXIES); false: none. */
  trustProxy?: boolean | string[];
  /** Told of every route as it is registered (tests compare them with the OpenAPI description). */
  onRoute?: (route: { method: string | string[]; url: string; websocket?: boolean }) => void;
  /**
   * An answer its call does not declare (status, content type, a 204 with a body) becomes a 500
   * instead of a logged error, and every JSON answer the compiled check passes is parsed by zod
   * too, which must agree (answer-serializer.ts): the API tests run so, which keeps the
   * declarations and their translation true.
   */
  strictAnswers?: boolean;
};

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}) {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? "silent",
      // Join secrets, emailed links' tokens and search terms stay out of the request log.
      serializers: { req: requestLogSerializer },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
    // A path that does not decode (a bad percent-encoding, a lone surrogate's bytes): the API's
    // error body, like every other refusal of bad input.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void reply.code(status).send({
        message: "Invalid request. The address does not decode as UTF-8 text.",
        code: "bad_url",
      });
    },
  });
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  // Routes are registered from their declarations (server/http/register-call.ts): zod validates
  // what comes in and checks the JSON that goes out.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(answerSerializerCompiler({ crossCheck: options.strictAnswers ?? false }));
  app.decorate("registeredCalls", []);
  app.decorate("strictAnswers", options.strictAnswers ?? false);

  registerSecurityHeaders(app, {
    behindTlsProxy: ctx.behindTlsProxy,
    agora: ctx.video?.agora !== undefined,
    scriptHashes: ctx.staticDir ? indexHtmlScriptHashes(ctx.staticDir) : undefined,
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.statusCode === 403) {
        // Every refused authorisation goes to the audit trail. A failure to write it is logged
        // and the answer stays the same 403.
        await recordForbidden(ctx.db, request, error).catch((auditError: unknown) =>
          request.log.error({ failure: errorSummary(auditError) }, "Could not audit a refused authorisation"),
        );
      }
      return reply.code(error.statusCode).send(error.toBody());
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      // A declaration's schema refused the params, query or body: the same 400 as parseInput.
      const issues = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, "").replaceAll("/", "."),
        message: issue.message ?? "is invalid",
      }));
      return reply.code(400).send(invalidRequest(issues).toBody());
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large.
      return reply.code(error.statusCode).send({ message: error.message, code: error.code });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is down or restarting: nothing was stored, and the same request can be
      // sent again later (the outbox does). Logged as a warning: the server is fine.
      request.log.warn({ failure: errorSummary(error) }, "Database unavailable");
      return reply.code(503).header("retry-after", String(DATABASE_RETRY_AFTER_S)).send({
        message: "The database is unavailable. Try again in a moment.",
        code: "database_unavailable",
      });
    }
    // Class, code and frames only: a database error's message carries the SQL and its
    // parameters (error-summary.ts). The answer names nothing; the log line has the reqId.
    request.log.error({ failure: errorSummary(error) }, "Request failed");
    return reply.code(500).send({ message: "Internal server error", code: "internal" });
  });

  // Text, depth and parsing bounds of every request's input, before any route sees it.
  registerInputBounds(app);

  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send({ message: "Page or resource not found.", code: "not_found" }),
  );

  // Clinic Wi-Fi is slow: the app's code and the survey definitions (a 1,000-question JSON
  // shrinks about 20 times) travel compressed. Brotli at quality 4 (the plugin's default) first,
  // as every tablet browser offers it over HTTPS: against gzip at level 6 it sends as few bytes
  // or fewer (the pending instruments' 147 KB in 5.6 KB against 6.3) for less of the server's
  // CPU (a consent participants call 15.0 -> 11.7 ms, a pending instruments call 6.9 -> 5.7 ms
  // on the scale database). zlib's own default, quality 11, took 244 and 500 ms for
  // those two answers. gzip and deflate for the clients that do not offer brotli.
  // Already-compressed types (zip, JPEG) are left alone.
  // Answers up to 64 KiB (a page of search results, a list) are compressed in one synchronous
  // call: under a millisecond, where the stream path's thread-pool round trips cost two on a
  // 2-core server (the plugin's own limit there is 8 KiB). Larger ones still stream.
  await app.register(fastifyCompress, { encodings: ["br", "gzip", "deflate"], syncThreshold: 64 * 1024 });

  await app.register(fastifyMultipart, {
    limits: { fileSize: DOCUMENT_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 },
    throwFileSizeLimit: true,
  });

  const mailer: Mailer = createMailer(
    {
      smtpUrl: ctx.mail?.smtpUrl,
      from: ctx.mail?.from ?? DEFAULT_MAIL_FROM,
      dropDir: path.join(ctx.dataDir, "mail"),
    },
    app.log,
  );
  const accountMail: AccountMailDeps = {
    db: ctx.db,
    mailer,
    publicUrl: (ctx.mail?.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, ""),
  };
  const backgroundTasks = createBackgroundTasks(app.log);
  app.decorate("accountMail", accountMail);
  app.decorate("backgroundTasks", backgroundTasks);
  app.addHook("onClose", async () => {
    await backgroundTasks.drain();
    mailer.close();
  });

  // Virtual visits: room tokens for either video service, and the built-in one's signalling.
  const roomServices = {
    video: ctx.video ?? DEFAULT_VIDEO_SETTINGS,
    tickets: createRoomTicketSigner(ctx.signingSecret ?? randomBytes(32)),
  };
  const signalHub = createSignalHub({
    db: ctx.db,
    tickets: roomServices.tickets,
    bus: ctx.notifications ? createPostgresBus(ctx.db, ctx.notifications, app.log) : createLocalBus(),
    log: app.log,
  });
  // Before the WebSocket plugin's own preClose closes the sockets: peers leave their rooms (and
  // the other servers hear it) while the database is still open.
  app.addHook("preClose", async () => {
    await signalHub.stop();
  });
  // Twice the message limit: the hub answers a too-large message with an error before closing.
  await app.register(fastifyWebsocket, { options: { maxPayload: 2 * SIGNAL_MESSAGE_MAX_BYTES } });
  await signalHub.start();

  healthRoutes(app, ctx);
  publicLoginRoutes(app, ctx);
  joinVisitRoutes(app, ctx, roomServices);
  signalSocketRoutes(app, signalHub);
  passwordSetupRoutes(app, ctx, { accountMail, background: backgroundTasks });

  await app.register(async (authenticated) => {
    authenticated.addHook("onRequest", async (request) => {
      await authenticate(request, ctx.db, ctx.tokens);
    });
    loginRoutes(authenticated, ctx);
    meRoutes(authenticated, ctx);
    changePasswordRoutes(authenticated, ctx);
    studyRoutes(authenticated, ctx);
    participantRoutes(authenticated, ctx);
    participantSearchRoutes(authenticated, ctx);
    participantListRoutes(authenticated, ctx);
    participantEnrolmentRoutes(authenticated, ctx);
    formsListRoutes(authenticated, ctx);
    instancesListRoutes(authenticated, ctx);
    definitionRoutes(authenticated, ctx);
    submissionRoutes(authenticated, ctx);
    instrumentHistoryRoutes(authenticated, ctx);
    pendingInstrumentsRoutes(authenticated, ctx);
    myConsentsRoutes(authenticated, ctx);
    consentParticipantsRoutes(authenticated, ctx);
    getConsentRoutes(authenticated, ctx);
    getBlankConsentRoutes(authenticated, ctx);
    postConsentRoutes(authenticated, ctx);
    signingKeyRoutes(authenticated, ctx);
    signingPasswordRoutes(authenticated, ctx);
    consentDocumentRoutes(authenticated, ctx, { mailer });
    listUsersRoutes(authenticated, ctx);
    editUserRoutes(authenticated, ctx);
    staffRoutes(authenticated, ctx, { accountMail, background: backgroundTasks });
    eventRoutes(authenticated, ctx);
    announcementRoutes(authenticated, ctx);
    exportRoutes(authenticated, ctx);
    onboardingRoutes(authenticated, ctx);
    fileRoutes(authenticated, ctx);
    listVisitsRoutes(authenticated, ctx);
    scheduleVisitRoutes(authenticated, ctx, { accountMail, background: backgroundTasks });
    roomTokenRoutes(authenticated, ctx, roomServices);
  });

  // Built on first request, when every call is registered.
  let description: ReturnType<typeof openApiDocument> | undefined;
  registerCall(
    app,
    openApiCall,
    async () =>
      (description ??= openApiDocument(app.registeredCalls, packageJson.version, {
        serverUrl: accountMail.publicUrl,
      })),
  );

  if (ctx.staticDir) await serveApp(app, ctx.staticDir);
  return app;
}
