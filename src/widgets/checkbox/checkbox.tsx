/** A checkbox (spec 02 section 2): React Aria's Checkbox, labelled by its children. */
import type { ReactNode } from "react";
import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from "react-aria-components";
import "../widgets.css";

export type CheckboxProps = Omit<AriaCheckboxProps, "className" | "children"> & { children: ReactNode };

export function Checkbox({ children, ...props }: CheckboxProps) {
  return (
    <AriaCheckbox {...props} className="rac-check">
      {({ isSelected, isIndeterminate }) => (
        <>
          <span className="rac-check__box" aria-hidden="true">
            {isIndeterminate ? "–" : isSelected ? "✓" : ""}
          </span>
          <span>{children}</span>
        </>
      )}
    </AriaCheckbox>
  );
}
