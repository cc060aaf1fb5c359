/**
 * A tooltip (spec 02 section 2): shown on hover and on keyboard focus of its trigger, hidden on
 * Escape, and describing the trigger (React Aria's TooltipTrigger). The trigger must be
 * focusable: a Button, or a link.
 */
import type { ReactElement, ReactNode } from "react";
import { Tooltip as AriaTooltip, TooltipTrigger } from "react-aria-components";
import "../widgets.css";

export type TooltipProps = {
  /** A React Aria Button or another focusable React Aria element. */
  children: ReactElement;
  content: ReactNode;
  delayMs?: number;
  placement?: "top" | "bottom" | "start" | "end";
};

export function Tooltip({ children, content, delayMs = 500, placement = "top" }: TooltipProps) {
  return (
    <TooltipTrigger delay={delayMs}>
      {children}
      <AriaTooltip className="rac-tooltip" placement={placement} offset={6}>
        {content}
      </AriaTooltip>
    </TooltipTrigger>
  );
}
