import { useHeadroom, useHeadroomStore } from "../app-context";

/** Narrows the cards by id: with dozens of providers, the one you want is a few letters away. `/` comes here. */
export function ProviderFilter() {
  const store = useHeadroomStore();
  const filter = useHeadroom((state) => state.filter);
  return (
    <input
      type="search"
      className="filter"
      aria-label="Filter providers"
      aria-keyshortcuts="/"
      placeholder="Filter providers   /"
      data-focus="filter"
      value={filter}
      onChange={(event) => store.setState({ filter: event.target.value })}
      onKeyDown={(event) => {
        if (event.key === "Escape" && filter !== "") {
          event.preventDefault();
          store.setState({ filter: "" });
        }
      }}
    />
  );
}
