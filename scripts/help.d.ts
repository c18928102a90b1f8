/** Prints `text` and exits 0 when the command line asks for help (`--help`, `-h`); returns otherwise. */
export declare const helpIfAsked: (text: string) => void;
