import type { Story, StoryDefault } from "@ladle/react";
import { useEffect } from "react";
import { GlobalLoader } from "./global-loader.tsx";
import { startLoading, stopLoading } from "./loading-store.ts";

export default { title: "Widgets / Loader" } satisfies StoryDefault;

export const Loading: Story = () => {
  useEffect(() => {
    startLoading();
    return () => stopLoading();
  }, []);
  return <GlobalLoader />;
};
