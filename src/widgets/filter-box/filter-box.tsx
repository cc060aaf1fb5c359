/**
 * The filter box (spec 02 sections 4 and 9): a popup titled Filter with a list of choices and
 * the buttons Clear, Cancel and Apply. An edit enables Apply and Cancel; Clear is enabled only
 * while a filter is applied. The list is filtered by what was applied, never by the draft.
 */
import { Trans, useLingui } from "@lingui/react/macro";
import { useReducer } from "react";
import { Checkbox as AriaCheckbox, CheckboxGroup, Label } from "react-aria-components";
import { Popup } from "../popup/popup.tsx";
import {
  filterBoxButtons,
  filterBoxReducer,
  initialFilterBoxState,
  isEmptySelection,
} from "./filter-box-state.ts";
import "../widgets.css";
import "./filter-box.css";

export type FilterChoice = { value: string; label: string };

export type FilterBoxProps = {
  /** What the choices are (e.g. 'Status'): the group's label. */
  choicesLabel: string;
  choices: readonly FilterChoice[];
  applied: readonly string[];
  onApply: (applied: readonly string[]) => void;
};

export function FilterBox({ choicesLabel, choices, applied, onApply }: FilterBoxProps) {
  const { t } = useLingui();
  const [state, dispatch] = useReducer(filterBoxReducer<readonly string[]>, applied, initialFilterBoxState);
  const buttons = filterBoxButtons(state, isEmptySelection);
  const count = state.applied.length;
  return (
    <Popup
      title={<Trans id="widget_filter_title">Filter</Trans>}
      onOpenChange={(open) => {
        if (open) dispatch({ type: "open" });
      }}
      trigger={
        count > 0
          ? t({ id: "widget_filter_button_applied", message: `Filter (${count})` })
          : t({ id: "widget_filter_button", message: "Filter" })
      }
    >
      {(close) => (
        <div className="filter-box">
          <CheckboxGroup
            className="rac-field"
            value={[...state.draft]}
            onChange={(draft) => dispatch({ type: "edit", draft })}
          >
            <Label className="rac-field__label">{choicesLabel}</Label>
            {choices.map((choice) => (
              <AriaCheckbox key={choice.value} value={choice.value} className="rac-check">
                {({ isSelected }) => (
                  <>
                    <span className="rac-check__box" aria-hidden="true">
                      {isSelected ? "✓" : ""}
                    </span>
                    <span>{choice.label}</span>
                  </>
                )}
              </AriaCheckbox>
            ))}
          </CheckboxGroup>
          <div className="filter-box__actions">
            <button
              type="button"
              className="button button--secondary"
              disabled={!buttons.clear}
              onClick={() => {
                dispatch({ type: "clear", empty: [] });
                onApply([]);
                close();
              }}
            >
              <Trans id="widget_filter_clear">Clear</Trans>
            </button>
            <button
              type="button"
              className="button button--secondary"
              disabled={!buttons.cancel}
              onClick={() => {
                dispatch({ type: "cancel" });
                close();
              }}
            >
              <Trans id="widget_filter_cancel">Cancel</Trans>
            </button>
            <button
              type="button"
              className="button button--primary"
              disabled={!buttons.apply}
              onClick={() => {
                dispatch({ type: "apply" });
                onApply(state.draft);
                close();
              }}
            >
              <Trans id="widget_filter_apply">Apply</Trans>
            </button>
          </div>
        </div>
      )}
    </Popup>
  );
}
