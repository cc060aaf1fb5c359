/** The widget gallery (Ladle): one story per widget and state, built by `npm run gallery:build`. */
export default {
  stories: "src/**/*.stories.tsx",
  outDir: "dist-gallery",
  viteConfig: ".ladle/vite.config.ts",
  port: 4451,
  previewPort: 4452,
  addons: {
    a11y: { enabled: true },
    width: { enabled: true, options: { phone: 390, tablet: 768 }, defaultState: 0 },
  },
};
