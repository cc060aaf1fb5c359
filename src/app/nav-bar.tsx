import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { useEffect, useId, useRef, useState } from "react";
import { logout } from "../auth/logout.ts";
import { useStoredUser } from "../auth/use-stored-user.ts";
import { BrandMark } from "../widgets/brand.tsx";
import { formatShortDate } from "./format-date.ts";

/** The navigation bar: brand, today's date, and the user menu. */
export function NavBar() {
  const { t } = useLingui();
  const user = useStoredUser();
  const menuId = useId();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnOutside = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === "Escape") setMenuOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutside);
    document.addEventListener("keydown", closeOnEscape);
    return () => {
      document.removeEventListener("pointerdown", closeOnOutside);
      document.removeEventListener("keydown", closeOnEscape);
    };
  }, [menuOpen]);

  return (
    <header className="nav-bar">
      <nav className="nav-bar__inner" aria-label={t({ id: "nav_label", message: "Main" })}>
        <Link to="/studies" className="brand">
          <BrandMark />
          <span className="visually-hidden">
            <Trans id="nav_all_studies">All studies</Trans>
          </span>
        </Link>
        <span className="nav-bar__date">{formatShortDate(new Date())}</span>
        {user ? (
          <div className="user-menu" ref={menuRef}>
            <button
              type="button"
              className="user-menu__button"
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <span className="user-menu__avatar" aria-hidden="true">
                {(user.nickname || user.name || user.username).slice(0, 1).toUpperCase()}
              </span>
              <span className="user-menu__name">{user.nickname || user.name || user.username}</span>
            </button>
            {menuOpen ? (
              <ul id={menuId} className="user-menu__list">
                <li>
                  <button
                    type="button"
                    className="user-menu__item"
                    onClick={() => {
                      setMenuOpen(false);
                      logout();
                    }}
                  >
                    <Trans id="nav_logout">Log out</Trans>
                  </button>
                </li>
              </ul>
            ) : null}
          </div>
        ) : null}
      </nav>
    </header>
  );
}
