/**
 * A group of radio buttons (spec 02 section 2): React Aria's RadioGroup (arrow keys move the
 * choice, one tab stop for the group) labelled by its label. It looks as every radio of the
 * portal does (radio.css).
 */
import type { ReactNode } from "react";
import { Label, Radio, RadioGroup as AriaRadioGroup, Text } from "react-aria-components";
import "../widgets.css";
import "./radio.css";

export type RadioOption = { value: string; label: ReactNode; disabled?: boolean };

export type RadioGroupProps = {
  label: ReactNode;
  description?: ReactNode;
  options: readonly RadioOption[];
  value?: string | null;
  defaultValue?: string;
  onChange?: (value: string) => void;
  isDisabled?: boolean;
  isRequired?: boolean;
  orientation?: "horizontal" | "vertical";
};

export function RadioGroup({ label, description, options, ...props }: RadioGroupProps) {
  return (
    <AriaRadioGroup {...props} className="rac-field">
      <Label className="rac-field__label">{label}</Label>
      {description ? (
        <Text slot="description" className="rac-field__description">
          {description}
        </Text>
      ) : null}
      {options.map((option) => (
        <Radio
          key={option.value}
          value={option.value}
          isDisabled={option.disabled}
          className="rac-check rac-check--radio"
        >
          {/* The ring and its dot are drawn by radio.css, as every radio of the portal is. */}
          <span className="rac-check__box" aria-hidden="true" />
          <span>{option.label}</span>
        </Radio>
      ))}
    </AriaRadioGroup>
  );
}
