// The only C surface of ncurses that loopviz sees. SwiftPM drops the -D flags of ncursesw.pc, so the
// wide-character API has to be switched on here before the header is included.
#ifndef LOOPVIZ_CNCURSES_SHIM_H
#define LOOPVIZ_CNCURSES_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <locale.h>
#include <langinfo.h>
#include <ncursesw/curses.h>

static inline int lv_attr_bold(void) { return (int)A_BOLD; }
static inline int lv_attr_dim(void) { return (int)A_DIM; }
static inline int lv_attr_reverse(void) { return (int)A_REVERSE; }
static inline int lv_attr_underline(void) { return (int)A_UNDERLINE; }
static inline int lv_key_f(int n) { return KEY_F(n); }

#endif
