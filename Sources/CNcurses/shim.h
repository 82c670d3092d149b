// The only C surface of ncurses that loopviz sees. SwiftPM drops the -D flags of ncursesw.pc, so the
// wide-character API has to be switched on here before the header is included.
#ifndef LOOPVIZ_CNCURSES_SHIM_H
#define LOOPVIZ_CNCURSES_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <string.h>
#include <stdio.h>
#include <ncursesw/curses.h>

static inline int lv_attr_bold(void) { return (int)A_BOLD; }
static inline int lv_attr_dim(void) { return (int)A_DIM; }
static inline int lv_attr_reverse(void) { return (int)A_REVERSE; }
static inline int lv_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int lv_key_f(int n) { return KEY_F(n); }
static inline int lv_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int lv_key_btab(void) { return KEY_BTAB; }
static inline int lv_colors(void) { return COLORS; }
static inline WINDOW *lv_stdscr(void) { return stdscr; }
/// newterm on the process's stdout/stdin (Swift 6 rejects the C globals `stdout` and `stdin`).
static inline SCREEN *lv_newterm(void) { return newterm(NULL, stdout, stdin); }
static inline int lv_codeset_is_utf8(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}
static inline int lv_color_pairs(void) { return COLOR_PAIRS; }
/// Draws one wide character with attributes and a colour pair at (y, x).
static inline int lv_put_wchar(WINDOW *win, int y, int x, wchar_t ch, int attrs, short pair) {
    wchar_t text[2] = { ch, 0 };
    cchar_t cell;
    setcchar(&cell, text, (attr_t)attrs, pair, NULL);
    return mvwadd_wch(win, y, x, &cell);
}

#endif
