import type { Story, StoryDefault } from "@ladle/react";
import { useEffect } from "react";
import { showRecordedVisitToast } from "./recorded-visit-toast.ts";
import { showToast } from "./toast-store.ts";
import { Toaster } from "./toaster.tsx";

export default { title: "Widgets / Toast" } satisfies StoryDefault;

function Show({ kind }: { kind: "success" | "error" | "recorded" }) {
  useEffect(() => {
    if (kind === "recorded") showRecordedVisitToast();
    else
      showToast(
        kind === "success" ? "Your profile was updated." : "User info failed to save.",
        kind,
        100_000,
      );
  }, [kind]);
  return <Toaster />;
}

export const Success: Story = () => <Show kind="success" />;
export const Error: Story = () => <Show kind="error" />;
export const RecordedVisit: Story = () => <Show kind="recorded" />;
