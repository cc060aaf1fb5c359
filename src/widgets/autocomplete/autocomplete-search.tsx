/**
 * Autocomplete search (spec 02 section 5): a combo box that filters its items as one types
 * (case-insensitive, substring) and shows 'No Matching Results' when nothing matches (React
 * Aria's ComboBox: listbox navigation, the active option announced).
 */
import { Trans } from "@lingui/react/macro";
import { useMemo, useState, type Key, type ReactNode } from "react";
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from "react-aria-components";
import "../widgets.css";

export type SearchItem = { id: string; label: string };

export type AutocompleteSearchProps = {
  label: ReactNode;
  items: readonly SearchItem[];
  onSelect: (item: SearchItem) => void;
  placeholder?: string;
};

/** The items whose label holds the text, ignoring case; all of them for a blank text. */
export function matchingItems(items: readonly SearchItem[], text: string): SearchItem[] {
  const needle = text.trim().toLocaleLowerCase();
  if (!needle) return [...items];
  return items.filter((item) => item.label.toLocaleLowerCase().includes(needle));
}

export function AutocompleteSearch({ label, items, onSelect, placeholder }: AutocompleteSearchProps) {
  const [text, setText] = useState("");
  const shown = useMemo(() => matchingItems(items, text), [items, text]);
  return (
    <ComboBox
      className="rac-field"
      items={shown}
      inputValue={text}
      onInputChange={setText}
      allowsEmptyCollection
      menuTrigger="input"
      onSelectionChange={(key: Key | null) => {
        const item = items.find((candidate) => candidate.id === key);
        if (item) {
          setText(item.label);
          onSelect(item);
        }
      }}
    >
      <Label className="rac-field__label">{label}</Label>
      <div className="rac-combobox__row">
        <Input className="rac-input" placeholder={placeholder} />
        <Button className="rac-combobox__toggle rac-focus">
          <span aria-hidden="true">▾</span>
        </Button>
      </div>
      <Popover className="rac-popover">
        <ListBox
          className="rac-listbox"
          renderEmptyState={() => (
            <p className="rac-listbox__empty">
              <Trans id="widget_autocomplete_no_results">No Matching Results</Trans>
            </p>
          )}
        >
          {(item: SearchItem) => (
            <ListBoxItem id={item.id} className="rac-listbox__item" textValue={item.label}>
              {item.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
