/** The part of esbuild's `PluginBuild` the plugin uses (structural: no dependency on esbuild's types). */
export interface HolarynEsbuildPluginBuild {
  initialOptions: { outdir?: string; outfile?: string; write?: boolean; absWorkingDir?: string };
  onLoad(options: { filter: RegExp }, callback: () => undefined): void;
  onEnd(callback: (result: { errors: unknown[] }) => void): void;
}
/** An esbuild `Plugin`. */
export interface HolarynEsbuildPlugin {
  name: string;
  setup(build: HolarynEsbuildPluginBuild): void;
}
/**
 * esbuild plugin: copies holaryn's wasm next to the bundle so the default `init()` finds it
 * (`esbuild.build({ ..., plugins: [holarynWasm()] })`).
 */
export function holarynWasm(): HolarynEsbuildPlugin;
