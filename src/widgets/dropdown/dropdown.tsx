/**
 * A dropdown (spec 02 section 2; closes on an outside click, section 4): React Aria's Select, a
 * button that opens a list box in a popover; the keyboard opens it, moves in it and picks.
 */
import type { Key, ReactNode } from "react";
import {
  Button,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
  Text,
} from "react-aria-components";
import "../widgets.css";

export type DropdownOption = { value: string; label: string };

export type DropdownProps = {
  label: ReactNode;
  description?: ReactNode;
  options: readonly DropdownOption[];
  value: string | null;
  onChange: (value: string) => void;
  placeholder?: string;
  isDisabled?: boolean;
  isRequired?: boolean;
};

export function Dropdown({
  label,
  description,
  options,
  value,
  onChange,
  placeholder,
  ...props
}: DropdownProps) {
  return (
    <Select
      {...props}
      className="rac-field"
      placeholder={placeholder}
      selectedKey={value}
      onSelectionChange={(key: Key | null) => {
        if (key !== null) onChange(String(key));
      }}
    >
      <Label className="rac-field__label">{label}</Label>
      <Button className="rac-select__button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      {description ? (
        <Text slot="description" className="rac-field__description">
          {description}
        </Text>
      ) : null}
      <Popover className="rac-popover">
        <ListBox className="rac-listbox" items={options.map((option) => ({ id: option.value, ...option }))}>
          {(option) => (
            <ListBoxItem id={option.id} className="rac-listbox__item" textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
