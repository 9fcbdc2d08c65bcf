import { GROW_FAILED_GLOBAL } from './grow-probe.ts';
import { INIT_EXPORT } from './wasi/names.ts';
import { SectionId, WASM_HEADER, encodeName, encodeSection, leb } from './wasm-binary.ts';

/** The module name under which the wrapper links the guest (an Extism manifest item name). */
export const GUEST_MODULE_NAME = 'hookbox:guest';
/** The wrapper's exported mutable global holding the last export's i32 return code. */
export const RC_GLOBAL = 'hookbox_rc';
/**
 * A guest export `(len: i32) -> i32` returning a buffer of `len` bytes in its
 * memory, which the adapter fills with the call input before the call (the
 * hookbox JS engine exports it; see `pdk/engine/src/input.c`). The wrapper
 * re-exports it unchanged with `inputReserve`. The name is reserved: a guest
 * exporting it with another type fails to load.
 */
export const INPUT_RESERVE_EXPORT = 'hookbox_input_reserve';

/**
 * Builds the tiny "main" module linked in front of a guest. `Plugin.call` in
 * the Extism SDK discards an export's i32 result, so each wrapper export calls
 * the guest's export of the same name and stores the result in an exported
 * global the adapter reads after the call. It also re-exports the guest's
 * memory so the adapter can see its size, and with `reexportInit` the
 * guest's renamed `_initialize` (`INIT_EXPORT`, `() -> ()`), which the
 * adapter runs once that memory is reachable, and with `inputReserve` the
 * guest's `INPUT_RESERVE_EXPORT`. Only public SDK features are used
 * (manifest linking by module name).
 */
export function buildRcWrapper(
  exportNames: readonly string[],
  reexportMemory: boolean,
  reexportInit = false,
  reexportGrowProbe = false,
  inputReserve = false,
): Uint8Array {
  // An imported global comes first in the global index space: the wrapper's own rc global follows it.
  const rcIndex = reexportGrowProbe ? 1 : 0;
  const sections: Uint8Array[] = [];
  // type 0: () -> i32, type 1: () -> (), type 2: (i32) -> i32
  sections.push(encodeSection(SectionId.type, [3, 0x60, 0, 1, 0x7f, 0x60, 0, 0, 0x60, 1, 0x7f, 1, 0x7f]));

  // Imported functions come first in the index space: seam exports, then init, then the reservation.
  const init = reexportInit ? 1 : 0;
  const imported = exportNames.length + init + (inputReserve ? 1 : 0);
  const imports: number[] = [...leb(imported + (reexportMemory ? 1 : 0) + (reexportGrowProbe ? 1 : 0))];
  for (const name of exportNames) imports.push(...encodeName(GUEST_MODULE_NAME), ...encodeName(name), 0x00, 0x00);
  if (reexportInit) imports.push(...encodeName(GUEST_MODULE_NAME), ...encodeName(INIT_EXPORT), 0x00, 0x01);
  if (inputReserve) imports.push(...encodeName(GUEST_MODULE_NAME), ...encodeName(INPUT_RESERVE_EXPORT), 0x00, 0x02);
  // Import the guest memory with limits {min 0, no max}: it matches any 32-bit memory.
  if (reexportMemory) imports.push(...encodeName(GUEST_MODULE_NAME), ...encodeName('memory'), 0x02, 0x00, 0x00);
  // The guest's "a memory.grow was refused" flag (grow-probe.ts): mut i32.
  if (reexportGrowProbe) imports.push(...encodeName(GUEST_MODULE_NAME), ...encodeName(GROW_FAILED_GLOBAL), 0x03, 0x7f, 0x01);
  sections.push(encodeSection(SectionId.import, imports));

  sections.push(encodeSection(SectionId.function, [...leb(exportNames.length), ...exportNames.map(() => 0)]));
  // global 0: mut i32 = 0
  sections.push(encodeSection(SectionId.global, [1, 0x7f, 0x01, 0x41, 0x00, 0x0b]));

  const exportCount = exportNames.length + 1 + (reexportMemory ? 1 : 0) + init + (reexportGrowProbe ? 1 : 0) + (inputReserve ? 1 : 0);
  const exports: number[] = [...leb(exportCount)];
  exportNames.forEach((name, i) => exports.push(...encodeName(name), 0x00, ...leb(imported + i)));
  exports.push(...encodeName(RC_GLOBAL), 0x03, rcIndex);
  if (reexportInit) exports.push(...encodeName(INIT_EXPORT), 0x00, ...leb(exportNames.length));
  if (inputReserve) exports.push(...encodeName(INPUT_RESERVE_EXPORT), 0x00, ...leb(exportNames.length + init));
  if (reexportMemory) exports.push(...encodeName('memory'), 0x02, 0x00);
  if (reexportGrowProbe) exports.push(...encodeName(GROW_FAILED_GLOBAL), 0x03, 0x00);
  sections.push(encodeSection(SectionId.export, exports));

  const code: number[] = [...leb(exportNames.length)];
  exportNames.forEach((_, i) => {
    // no locals; call $guest_i; global.set 0; global.get 0; end
    const body = [0x00, 0x10, ...leb(i), 0x24, rcIndex, 0x23, rcIndex, 0x0b];
    code.push(...leb(body.length), ...body);
  });
  sections.push(encodeSection(SectionId.code, code));

  const total = WASM_HEADER.length + sections.reduce((n, s) => n + s.length, 0);
  const out = new Uint8Array(total);
  out.set(WASM_HEADER, 0);
  let offset = WASM_HEADER.length;
  for (const s of sections) {
    out.set(s, offset);
    offset += s.length;
  }
  return out;
}
