/**
 * Enrolment by coordinators and enrollers: adding a participant at a site (idempotent, from the
 * outbox too), editing one, and a site's CSV import.
 */
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context.ts";

export function participantEnrolmentRoutes(_app: FastifyInstance, _ctx: AppContext) {}
