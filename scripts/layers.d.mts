// Types of scripts/layers.mjs (for the tests that import it).
export declare const LAYERS: Record<string, string[][]>;
export interface LayerZone {
  target: string[];
  from: string[];
  message: string;
}
export declare function layerZones(base?: string): LayerZone[];
export declare function layerProblems(root: string, layers?: Record<string, string[][]>): string[];
