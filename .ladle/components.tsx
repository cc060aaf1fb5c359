/** Every story runs inside the app's Lingui provider (English, bundled) with the app's CSS. */
import type { GlobalProvider } from "@ladle/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "../src/i18n/i18n.ts";
import "../src/app/styles.css";

export const Provider: GlobalProvider = ({ children }) => (
  <I18nProvider i18n={i18n}>
    <main className="gallery-story" style={{ padding: "1rem" }}>
      {children}
    </main>
  </I18nProvider>
);
