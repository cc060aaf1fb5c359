/**
 * Which reader reads each standard format an instrument can be imported from. A format listed
 * in IMPORT_FORMATS but not registered here yet is refused with a clear message, instead of
 * being half-read.
 */
import { ImportError } from "../instruments/import-instrument.ts";
import { readFhirQuestionnaire } from "./fhir/read-fhir-questionnaire.ts";
import type { ImportFormat, InstrumentReader } from "./imported-instrument.ts";
import { readOdmInstrument } from "./odm/read-odm-instrument.ts";
import { readRedcapInstrument } from "./redcap/read-redcap-instrument.ts";

export const INSTRUMENT_READERS: Partial<Record<ImportFormat, InstrumentReader>> = {
  redcap: readRedcapInstrument,
  odm: readOdmInstrument,
  fhir: readFhirQuestionnaire,
};

/** The reader of a format, or an ImportError saying the format cannot be imported yet. */
export function instrumentReaderFor(format: ImportFormat): InstrumentReader {
  const reader = INSTRUMENT_READERS[format];
  if (!reader) throw new ImportError(`The format ${format} cannot be imported yet`);
  return reader;
}
