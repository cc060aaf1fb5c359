/**
 * One page of one browser engine, driven the same way whatever drives it: WebKit (every iPad
 * browser's engine) through Debian's WebKitWebDriver and selenium-webdriver, Firefox through its
 * built-in WebDriver BiDi and puppeteer-core. The journeys (journeys.ts) are written against this
 * interface only, so one journey reads the same in every engine.
 *
 * Elements are found by what a person sees: a control by its label or its text (XPath, which
 * both protocols take), never by a class name.
 */
export interface EnginePage {
  readonly engine: "webkit" | "firefox";
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  reload(): Promise<void>;
  /** Runs a script in the page and answers its (JSON) result; an async function is awaited. */
  evaluate<T>(script: string): Promise<T>;
  /** The first element matching an XPath, once it is there and shown (waits up to `timeoutMs`). */
  waitFor(xpath: string, timeoutMs?: number): Promise<void>;
  /** Whether an element matching the XPath is shown now. */
  isShown(xpath: string): Promise<boolean>;
  click(xpath: string): Promise<void>;
  /** Types into the element (focused by a click first). */
  type(xpath: string, text: string): Promise<void>;
  /** A stroke across the element with the primary pointer, as a finger or a pen signs. */
  draw(xpath: string): Promise<void>;
  close(): Promise<void>;
}

const literal = (text: string) =>
  text.includes('"') ? `concat("${text.split('"').join(`", '"', "`)}")` : `"${text}"`;

/** XPaths a person's words find: a button, a link, an input by its label, a heading, a text. */
export const by = {
  button: (name: string) =>
    `//button[normalize-space(.)=${literal(name)} or @aria-label=${literal(name)}][not(@disabled)]`,
  buttonStarting: (start: string) => `//button[starts-with(normalize-space(.), ${literal(start)})]`,
  link: (name: string) => `//a[normalize-space(.)=${literal(name)}]`,
  input: (label: string) => `//input[@id=//label[normalize-space(.)=${literal(label)}]/@for]`,
  radio: (labelStart: string) =>
    `//label[starts-with(normalize-space(.), ${literal(labelStart)})]//input[@type="radio"]`,
  heading: (start: string) => `//*[self::h1 or self::h2][starts-with(normalize-space(.), ${literal(start)})]`,
  text: (text: string) =>
    `//*[contains(normalize-space(.), ${literal(text)})][not(*[contains(normalize-space(.), ${literal(text)})])]`,
  dialog: (name: string) =>
    `//*[@role="dialog" or @role="alertdialog"][.//*[normalize-space(.)=${literal(name)}]]`,
};
