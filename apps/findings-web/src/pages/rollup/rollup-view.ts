import {
  readViewState,
  selectionQuery,
  writeViewState,
  type ViewState,
} from '../findings/view-state';
import { ROLLUP_AXES, type RollupAxis, type RollupSort } from './rollup-api';

const SORTS: readonly RollupSort[] = ['total', 'key', 'critical', 'high', 'medium', 'low', 'info'];

/** The roll-up view in the URL: the list's filters or query, the axis, the sort, the open row. */
export interface RollupView {
  list: ViewState;
  axis: RollupAxis;
  sort: RollupSort;
  order: 'asc' | 'desc';
  /** The row whose members and actions are open. */
  key?: string;
}

export function readRollupView(params: URLSearchParams): RollupView {
  const axis = params.get('axis');
  const sort = params.get('by');
  const resolved = (SORTS as readonly string[]).includes(sort ?? '')
    ? (sort as RollupSort)
    : 'total';
  const dir = params.get('dir');
  return {
    list: readViewState(params),
    axis: (ROLLUP_AXES as readonly string[]).includes(axis ?? '')
      ? (axis as RollupAxis)
      : 'package',
    sort: resolved,
    order: dir === 'asc' || dir === 'desc' ? dir : resolved === 'key' ? 'asc' : 'desc',
    ...(params.get('key') ? { key: params.get('key') ?? '' } : {}),
  };
}

export function writeRollupView(view: RollupView): URLSearchParams {
  const params = writeViewState({
    ...view.list,
    sort: 'created_at',
    order: 'desc',
    groupBy: undefined,
  });
  params.set('axis', view.axis);
  if (view.sort !== 'total') params.set('by', view.sort);
  params.set('dir', view.order);
  if (view.key !== undefined) params.set('key', view.key);
  return params;
}

/** The list's selection (filters or `q`) the roll-up, its members and its actions share. */
export function rollupSelection(view: RollupView): Record<string, string> {
  return selectionQuery(view.list);
}
