import { expect, type Locator, type Page } from "@playwright/test";
import { SurveyPage } from "./survey-page.ts";

/**
 * The consent completion route as a signer sees it: the survey runner's steps (SurveyPage), the
 * consent signature question, the password re-entry dialog and the share menu.
 */
export class ConsentCompletionPage {
  readonly survey: SurveyPage;

  constructor(private readonly page: Page) {
    this.survey = new SurveyPage(page);
  }

  readonly close = () => this.page.getByRole("button", { name: "Close the consent" });
  readonly finishClose = () => this.page.getByRole("button", { name: "Finish + Close", exact: true });
  readonly share = () => this.page.getByRole("button", { name: "Share", exact: true });
  readonly mode = (name: "Draw" | "Type" | "Camera" | "Upload image") =>
    this.page.getByRole("radio", { name, exact: true });
  readonly pad = () => this.page.getByRole("img", { name: "Signature area: sign with a finger or a stylus" });
  readonly typedName = () => this.page.getByLabel("Type your full name");
  readonly sign = () => this.page.locator(".consent-signature__sign");
  readonly manifestation = () => this.page.getByTestId("signature-manifestation");
  readonly passwordDialog = () => this.page.getByRole("dialog", { name: "Confirm your signature" });
  readonly imageInput = () => this.page.locator('input[type="file"][accept=".jpg,.jpeg,.png,.svg"]');

  async goto(path: {
    studyId: number;
    siteId: number;
    consentId: number;
    participantId: number;
    version: number;
  }) {
    await this.page.goto(
      `/studies/${path.studyId}/sites/${path.siteId}/consents/${path.consentId}/participants/${path.participantId}/version/${path.version}`,
    );
    await expect(this.close()).toBeVisible();
  }

  /** A step's heading, by the start of its label (consent labels are long). */
  heading(labelStart: string): Locator {
    return this.page.getByRole("heading", { level: 2, name: new RegExp(`^${escape(labelStart)}`) });
  }

  /** Waits for the step whose label starts so, with the focus on its heading, then Next. */
  async next(labelStart: string) {
    await expect(this.heading(labelStart)).toBeFocused();
    await this.survey.next().click();
  }

  /** Draws a stroke on the signature pad. */
  async draw() {
    const box = await this.pad().boundingBox();
    if (!box) throw new Error("the signature pad is not laid out");
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + 40, y);
    await this.page.mouse.down();
    for (let step = 1; step <= 10; step++) {
      await this.page.mouse.move(box.x + 40 + step * 20, y + (step % 2 === 0 ? -25 : 25));
    }
    await this.page.mouse.up();
  }

  /** Types the password into the re-entry dialog and confirms. */
  async confirmPassword(password: string) {
    const dialog = this.passwordDialog();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Password", { exact: true })).toBeFocused();
    await dialog.getByLabel("Password", { exact: true }).fill(password);
    await dialog.getByRole("button", { name: "Sign", exact: true }).click();
  }
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
