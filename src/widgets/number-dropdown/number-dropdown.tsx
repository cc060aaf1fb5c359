/**
 * The number-input dropdown (spec 02 section 5): a combo box offering numbers that also takes a
 * typed integer; the text is read as an integer and a negative becomes 0 unless negatives are
 * allowed (React Aria's ComboBox with custom values).
 */
import { Trans } from "@lingui/react/macro";
import { useState, type Key, type ReactNode } from "react";
import {
  Button,
  ComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
} from "react-aria-components";
import { parseWholeNumber } from "./number-value.ts";
import "../widgets.css";

export type NumberDropdownProps = {
  label: ReactNode;
  options: readonly number[];
  value: number | null;
  onChange: (value: number | null) => void;
  allowNegative?: boolean;
};

export function NumberDropdown({
  label,
  options,
  value,
  onChange,
  allowNegative = false,
}: NumberDropdownProps) {
  const [text, setText] = useState(value === null ? "" : String(value));
  const invalid = text.trim() !== "" && parseWholeNumber(text, allowNegative) === null;
  const commit = (typed: string) => {
    const parsed = parseWholeNumber(typed, allowNegative);
    if (parsed !== null) setText(String(parsed));
    onChange(parsed);
  };
  return (
    <ComboBox
      className="rac-field"
      allowsCustomValue
      inputValue={text}
      isInvalid={invalid}
      onInputChange={setText}
      onSelectionChange={(key: Key | null) => {
        if (key !== null) commit(String(key));
      }}
      onBlur={() => commit(text)}
      onKeyDown={(event) => {
        if (event.key === "Enter") commit(text);
      }}
      items={options.map((option) => ({ id: String(option) }))}
    >
      <Label className="rac-field__label">{label}</Label>
      <div className="rac-combobox__row">
        <Input className="rac-input" inputMode="numeric" />
        <Button className="rac-combobox__toggle rac-focus">
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      <FieldError className="field-error">
        <Trans id="widget_number_dropdown_invalid">Enter a whole number.</Trans>
      </FieldError>
      <Popover className="rac-popover">
        <ListBox className="rac-listbox">
          {(item: { id: string }) => (
            <ListBoxItem id={item.id} className="rac-listbox__item">
              {item.id}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
