/** Numeric route params: anything that is not a positive whole id is a page that does not exist. */
import { notFound } from "@tanstack/react-router";
import { MAX_ID } from "../../core/contracts/study.ts";

export function parseRouteId(raw: string | undefined): number {
  const value = Number(raw);
  if (!raw || !/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value <= 0 || value > MAX_ID) {
    throw notFound();
  }
  return value;
}

export const studySiteParams = {
  parse: (raw: Record<string, string>) => ({
    studyId: parseRouteId(raw.studyId),
    siteId: parseRouteId(raw.siteId),
  }),
  stringify: (params: { studyId: number; siteId: number }) => ({
    studyId: String(params.studyId),
    siteId: String(params.siteId),
  }),
};
