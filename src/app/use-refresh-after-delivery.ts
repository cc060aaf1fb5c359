/**
 * The lists a delivered write changes are read again as soon as it leaves the outbox, whoever
 * sent it (this page, another tab, the service worker's Background Sync): a submission sent
 * later must not leave its form on the participant's to-do list until the next sign-in
 *. A submission or consent that leaves the outbox was stored by the server (or
 * exported and discarded by its user): either way the server's lists are the truth again.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useOutboxItems } from "../outbox-ui/use-outbox.ts";

const LIST_CHANGING_KINDS = new Set(["submission", "consent"]);

export function useRefreshAfterDelivery() {
  const queryClient = useQueryClient();
  const { data } = useOutboxItems();
  const waiting = useRef<ReadonlySet<string> | null>(null);
  useEffect(() => {
    if (!data) return;
    const now = new Set(data.filter((item) => LIST_CHANGING_KINDS.has(item.kind)).map((item) => item.id));
    const left = waiting.current !== null && [...waiting.current].some((id) => !now.has(id));
    waiting.current = now;
    if (!left) return;
    // The lists' modules come with the pages that show them: not part of the app's first load.
    void Promise.all([
      import("../api/instruments-api.ts"),
      import("../api/participants-api.ts"),
      import("../api/my-consents-api.ts"),
    ]).then(([{ instrumentListKeys }, { participantKeys }, { consentKeys }]) => {
      for (const queryKey of [instrumentListKeys.all, participantKeys.all, consentKeys.all]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    });
  }, [data, queryClient]);
}
