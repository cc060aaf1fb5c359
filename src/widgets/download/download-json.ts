import { downloadBlob } from "./download-blob.ts";

/** Hands a JSON file to the browser's download. */
export function downloadJson(fileName: string, value: unknown) {
  downloadBlob(fileName, new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }));
}
