import { TRACKED_OBJECTS, type TrackedObject } from './trackedObjects.ts';
import { VALUE_TRACKED_OBJECTS, type ValueTrackedObject } from './valueTracked.ts';

/** An object whose changes the agent detects: by DEX_ROW_TS (trackedObjects.ts) or by value (valueTracked.ts). */
export type Tracked = TrackedObject | ValueTrackedObject;

/** Every object the agent reports changes of, in the order a round polls them. */
export const ALL_TRACKED: readonly Tracked[] = [...TRACKED_OBJECTS, ...VALUE_TRACKED_OBJECTS];

export const isValueTracked = (tracked: Tracked): tracked is ValueTrackedObject => 'kind' in tracked && tracked.kind === 'values';
