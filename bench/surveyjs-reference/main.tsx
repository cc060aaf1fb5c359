/**
 * The reference page of `npm run bench:survey -- --reference`: SurveyJS Form Library (survey-core
 * and survey-react-ui) with its default theme, in React, as a single-page app would use it. Once
 * its JS has loaded it fetches the survey's JSON from the URL in `?definition=`, builds the model
 * with SurveyJS's defaults and renders `<Survey model={model} />`. The bench builds this folder
 * with Vite and measures it beside our app.
 *
 * The theme is survey-core's default one without its web font (survey-core.fontless.min.css): the
 * other file loads Open Sans from fonts.gstatic.com, a third-party request our app does not make.
 */
import "survey-core/survey-core.fontless.min.css";
import { createRoot } from "react-dom/client";
import { Model } from "survey-core";
import { Survey } from "survey-react-ui";

const definitionUrl = new URLSearchParams(window.location.search).get("definition");
if (!definitionUrl) throw new Error("No ?definition= URL");
const root = createRoot(document.getElementById("root")!);
void fetch(definitionUrl)
  .then((response) => {
    if (!response.ok) throw new Error(`${definitionUrl}: HTTP ${response.status}`);
    return response.json() as Promise<object>;
  })
  .then((json) => {
    const model = new Model(json);
    root.render(<Survey model={model} />);
  });
