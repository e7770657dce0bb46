type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The JSON merge patch (RFC 7396) that turns `before` into `after`. Checkpoints are saved
 * with SQLite's json_patch, which only removes a key the patch sets to null: a key an
 * adapter deleted (a container it dropped) must be sent as null, or it comes back.
 */
export function mergePatch(before: Json, after: Json): Json {
  const patch: Json = {};
  for (const key of Object.keys(before)) if (!(key in after) || after[key] === undefined) patch[key] = null;
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    const old = before[key];
    if (isObject(old) && isObject(value)) {
      const inner = mergePatch(old, value);
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else if (JSON.stringify(old) !== JSON.stringify(value)) {
      patch[key] = value;
    }
  }
  return patch;
}

/**
 * Applies a merge patch (RFC 7396) to `target` in place, as SQLite's json_patch applies it
 * on disk: null removes a member at any depth, objects merge, anything else replaces. A
 * context's checkpoint in memory is kept this way so an attempt sees what one after a
 * restart reads: a null member saved inside a value is gone in both (issue 35, item 7).
 */
export function applyMergePatch(target: Json, patch: Json): Json {
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    if (value === null) delete target[key];
    else if (isObject(value)) target[key] = applyMergePatch(isObject(target[key]) ? { ...target[key] } : {}, value);
    else target[key] = value;
  }
  return target;
}
