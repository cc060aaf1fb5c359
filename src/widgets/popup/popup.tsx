/**
 * A popup (spec 02 section 2; closes on an outside click or Escape, section 4): a button that
 * opens a non-modal dialog in a popover next to it, focus moved in and back out (React Aria's
 * DialogTrigger and Popover).
 */
import type { ReactNode } from "react";
import { Button, Dialog, DialogTrigger, Heading, Popover } from "react-aria-components";
import "../widgets.css";

/** Where the popup opens, next to its button. */
export type PopupPlacement = "bottom start" | "bottom end" | "bottom";
const DEFAULT_PLACEMENT: PopupPlacement = "bottom start";

export type PopupProps = {
  /** The content of the opening button. */
  trigger: ReactNode;
  /** The dialog's heading; it names the dialog. */
  title: ReactNode;
  /** The content, or a function of close. */
  children: ReactNode | ((close: () => void) => ReactNode);
  isOpen?: boolean;
  onOpenChange?: (isOpen: boolean) => void;
  triggerClassName?: string;
  placement?: PopupPlacement;
};

export function Popup({
  trigger,
  title,
  children,
  isOpen,
  onOpenChange,
  triggerClassName = "button button--secondary",
  placement = DEFAULT_PLACEMENT,
}: PopupProps) {
  return (
    <DialogTrigger isOpen={isOpen} onOpenChange={onOpenChange}>
      <Button className={`${triggerClassName} rac-focus`}>{trigger}</Button>
      <Popover className="rac-popover" placement={placement}>
        <Dialog className="rac-dialog">
          {({ close }) => (
            <>
              <Heading slot="title" className="rac-dialog__title">
                {title}
              </Heading>
              {typeof children === "function" ? children(close) : children}
            </>
          )}
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}
