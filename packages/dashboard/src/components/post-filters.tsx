import { PLATFORMS } from '@socialpub/core/platforms';
import { platformName } from '../lib/names';
import type { FilterKey, Filters } from '../lib/url-filters';

const SOURCES: readonly [string, string][] = [
  ['', 'any'],
  ['api', 'the API'],
  ['mcp', 'an agent (MCP)'],
  ['cli', 'the command line'],
];

/**
 * Search and filters over a list of posts (Review, Posts), each a labelled field; the values
 * live in the address (useUrlFilters). `statuses`: the status choices, when the list has them.
 */
export function PostFilters({ filters, set, clear, statuses }: { filters: Filters; set(key: FilterKey, value: string): void; clear(): void; statuses?: readonly [string, string][] }) {
  const any = Object.values(filters).some(Boolean);
  return (
    <form role="search" aria-label="Filter posts" class="filters row" onSubmit={(e) => e.preventDefault()}>
      <label>
        Search <input type="search" value={filters.q} placeholder="caption or job id" onInput={(e) => set('q', e.currentTarget.value)} />
      </label>
      <label>
        Network{' '}
        <select value={filters.platform} onChange={(e) => set('platform', e.currentTarget.value)}>
          <option value="">all networks</option>
          {PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {platformName(p)}
            </option>
          ))}
        </select>
      </label>
      {statuses && (
        <label>
          Status{' '}
          <select value={filters.status || 'all'} onChange={(e) => set('status', e.currentTarget.value === 'all' ? '' : e.currentTarget.value)}>
            {statuses.map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        Created through{' '}
        <select value={filters.source} onChange={(e) => set('source', e.currentTarget.value)}>
          {SOURCES.map(([v, label]) => (
            <option key={v} value={v}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        From <input type="date" value={filters.from} onInput={(e) => set('from', e.currentTarget.value)} />
      </label>
      <label>
        To <input type="date" value={filters.to} onInput={(e) => set('to', e.currentTarget.value)} />
      </label>
      {any && (
        <button type="button" onClick={clear}>
          Clear filters
        </button>
      )}
    </form>
  );
}
