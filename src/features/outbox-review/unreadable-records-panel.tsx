import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useState } from "react";
import { subscribeToOutbox, type UnreadableRecord } from "../../outbox/outbox-store.ts";
import { TOAST_ERROR_MS, TOAST_SUCCESS_MS, showToast } from "../../widgets/toast/toast-store.ts";
import { downloadJson } from "../../widgets/download/download-json.ts";
import { exportUnreadableRecords, listUnreadableRecords, ownerOf } from "./unreadable-records.ts";

/**
 * Records kept on this device that this version of the portal cannot read (damaged, or left by
 * a newer version): they are never sent or dropped; their owner can export them.
 */
export function UnreadableRecordsPanel({ viewerId }: { viewerId: number | undefined }) {
  const { t } = useLingui();
  const headingId = useId();
  const [records, setRecords] = useState<UnreadableRecord[]>([]);

  useEffect(() => {
    let active = true;
    const load = () =>
      void listUnreadableRecords().then((found) => {
        if (active) setRecords(found);
      });
    load();
    const stop = subscribeToOutbox(load);
    return () => {
      active = false;
      stop();
    };
  }, []);

  if (records.length === 0) return null;
  const own = records.filter((record) => viewerId !== undefined && ownerOf(record) === viewerId);

  const exportOwn = async () => {
    try {
      const fileName = `clinro-unreadable-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
      downloadJson(fileName, await exportUnreadableRecords(own));
      showToast(
        t({ id: "outbox_exported", message: `Exported as ${fileName}` }),
        "success",
        TOAST_SUCCESS_MS,
      );
    } catch {
      showToast(
        t({ id: "outbox_export_failed", message: "The item could not be exported." }),
        "error",
        TOAST_ERROR_MS,
      );
    }
  };

  return (
    <section className="storage-status storage-status--warning" aria-labelledby={headingId}>
      <h2 id={headingId} className="storage-status__heading">
        <Trans id="outbox_unreadable_heading">Saved data this version cannot read</Trans>
      </h2>
      <p>
        {t({
          id: "outbox_unreadable_count",
          message: plural(records.length, {
            one: "# saved record on this device cannot be read by this version of the portal. It is kept, and never sent.",
            other:
              "# saved records on this device cannot be read by this version of the portal. They are kept, and never sent.",
          }),
        })}
      </p>
      {own.length > 0 ? (
        <button type="button" className="button button--secondary" onClick={() => void exportOwn()}>
          {t({
            id: "outbox_unreadable_export",
            message: plural(own.length, { one: "Export my # record", other: "Export my # records" }),
          })}
        </button>
      ) : (
        <p>
          <Trans id="outbox_unreadable_not_yours">Only the user who made them can export them.</Trans>
        </p>
      )}
    </section>
  );
}
