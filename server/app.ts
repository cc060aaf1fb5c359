/**
 * Builds the API server: public calls, the authenticated /control/* calls, health, and the app.
 */
import fastifyCompress from "@fastify/compress";
import fastifyMultipart from "@fastify/multipart";
import path from "node:path";
import Fastify, { type FastifyError } from "fastify";
import { DOCUMENT_MAX_BYTES } from "../src/contracts/files.ts";
import type { AppContext } from "./context.ts";
import { authenticate } from "./auth/authenticate.ts";
import { createBackgroundTasks, type BackgroundTasks } from "./http/background-tasks.ts";
import { HttpError } from "./http/errors.ts";
import { serveApp } from "./http/static-app.ts";
import { loginRoutes, publicLoginRoutes } from "./routes/auth/login.ts";
import { myConsentsRoutes } from "./routes/consents/list-my-consents.ts";
import { eventRoutes } from "./routes/events/post-events.ts";
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
import { studyRoutes } from "./routes/studies/get-study.ts";
import { changePasswordRoutes } from "./routes/users/change-password.ts";
import { listUsersRoutes } from "./routes/users/list-users.ts";
import { meRoutes } from "./routes/users/me.ts";
import { passwordSetupRoutes } from "./routes/users/password-setup.ts";
import { createMailer, type Mailer } from "./mail/mailer.ts";
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

export type BuildAppOptions = { logLevel?: string; trustProxy?: boolean };

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}) {
  const app = Fastify({
    logger: { level: options.logLevel ?? "silent" },
    trustProxy: options.trustProxy ?? false,
    bodyLimit: 1024 * 1024,
  });

  app.addHook("onSend", async (_request, reply) => {
    reply.header("x-content-type-options", "nosniff");
    reply.header("referrer-policy", "same-origin");
    reply.header("x-frame-options", "DENY");
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).send(error.toBody());
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, body too large.
      return reply.code(error.statusCode).send({ message: error.message, code: error.code });
    }
    request.log.error(error);
    return reply.code(500).send({ message: "Internal server error", code: "internal" });
  });

  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send({ message: "Page or resource not found.", code: "not_found" }),
  );

  // Clinic Wi-Fi is slow: the app's code and the survey definitions (a 1,000-question JSON
  // shrinks about 20 times) travel compressed. gzip and deflate only: brotli at request time
  // costs more CPU than it saves here. Already-compressed types (zip, JPEG) are left alone.
  await app.register(fastifyCompress, { encodings: ["gzip", "deflate"] });

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

  healthRoutes(app, ctx);
  publicLoginRoutes(app, ctx);
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
    formsListRoutes(authenticated, ctx);
    instancesListRoutes(authenticated, ctx);
    definitionRoutes(authenticated, ctx);
    submissionRoutes(authenticated, ctx);
    instrumentHistoryRoutes(authenticated, ctx);
    pendingInstrumentsRoutes(authenticated, ctx);
    myConsentsRoutes(authenticated, ctx);
    listUsersRoutes(authenticated, ctx);
    eventRoutes(authenticated, ctx);
    fileRoutes(authenticated, ctx);
  });

  if (ctx.staticDir) await serveApp(app, ctx.staticDir);
  return app;
}
