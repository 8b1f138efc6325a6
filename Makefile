# flashfs-tools — top-level build.
#
# Every folder in MODULES compiles all of its *.c files except *_main.c into
# build/lib/libff_<folder>.a.  Programs are declared in the folder's module.mk
# (PROGRAMS += name; name_MAIN := folder/file_main.c) and link every library,
# so a folder never has to know who it depends on.
#
#   make              build programs into build/bin/
#   make check        install deps, build, run every test (prove summary)
#   make asan check   the same under AddressSanitizer + UBSan (build/asan/)
#   make demo         install deps, build, run the main job on the bundled rootfs

MODULES  := common compress squashfs yaffs2 mkfs flashfs fuse bench
BUILD    ?= build
CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=

ifneq ($(filter asan,$(MAKECMDGOALS)),)
BUILD    := build/asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif

# `make check` and `make demo` install the packages (scripts/install-deps)
# while this file is parsed, before the pkg-config lookups below: on a bare
# machine those would otherwise run before the -dev packages exist and the
# first build would compile without their flags (issue 15).  Top-level make
# only, and not under -n.
ifneq ($(filter check demo,$(MAKECMDGOALS)),)
ifeq ($(MAKELEVEL)$(findstring n,$(firstword -$(MAKEFLAGS))),0)
$(info scripts/install-deps)
DEPS_OUT := $(shell scripts/install-deps >&2)
ifneq ($(.SHELLSTATUS),0)
$(error scripts/install-deps failed (exit $(.SHELLSTATUS)); run it as root)
endif
endif
endif

PKGS     := zlib libdeflate lzo2 liblzma liblz4 libzstd fuse3
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null)

OPT      ?= -O2 -g
CFLAGS   ?= $(OPT)
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Wall -Wextra -Werror \
              -I. $(PKG_CFLAGS) $(SANFLAGS) $(CFLAGS)
LDLIBS   := $(PKG_LIBS) -lmtd -lpthread -lm
ALL_LDFLAGS := $(SANFLAGS) $(LDFLAGS)

PROGRAMS :=
MANPAGES :=
-include $(wildcard $(addsuffix /module.mk,$(MODULES)))

lib_srcs  = $(filter-out %_main.c,$(wildcard $(1)/*.c))
lib_objs  = $(patsubst %.c,$(BUILD)/obj/%.o,$(call lib_srcs,$(1)))
LIBS      := $(foreach m,$(MODULES),$(if $(call lib_srcs,$(m)),$(BUILD)/lib/libff_$(m).a))
BINS      := $(addprefix $(BUILD)/bin/,$(PROGRAMS))

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(TOOL_SRCS))

.PHONY: all deps check unit integration asan demo install clean fuzz \
        bench-mkfs bench-read bench-fuse bench-yaffs2 bench-rootfs nandsim-check \
        fresh-check
.DEFAULT_GOAL := all

all: $(BINS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

define LIB_RULE
$(BUILD)/lib/libff_$(1).a: $(call lib_objs,$(1))
	@mkdir -p $$(dir $$@)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach m,$(MODULES),$(if $(call lib_srcs,$(m)),$(eval $(call LIB_RULE,$(m)))))

define PROG_RULE
$(BUILD)/bin/$(1): $(BUILD)/obj/$(patsubst %.c,%.o,$($(1)_MAIN)) $(LIBS)
	@mkdir -p $$(dir $$@)
	$(CC) $(ALL_LDFLAGS) -o $$@ $$< -Wl,--start-group $(LIBS) -Wl,--end-group $(LDLIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call PROG_RULE,$(p))))

$(BUILD)/tests/%: tests/unit/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< -Wl,--start-group $(LIBS) -Wl,--end-group $(LDLIBS) -lcmocka

$(BUILD)/tests/tools/%: tests/tools/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< -Wl,--start-group $(LIBS) -Wl,--end-group $(LDLIBS)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

deps:
	@scripts/install-deps

asan:
	@true

# Unit tests print TAP through cmocka; integration tests are TAP shell
# scripts.  prove runs both and prints the summary CI reads.
# The harness counts skips and, under STRICT=1 or CI=true, fails every one
# not listed in tests/inherent-skips.txt (tests/perl/TAP/Harness/).
TEST_ENV := FF_BIN=$(abspath $(BUILD)/bin) FF_TOOLS=$(abspath $(BUILD)/tests/tools) \
            FF_BUILD=$(abspath $(BUILD)) FF_TOP=$(CURDIR) CMOCKA_MESSAGE_OUTPUT=TAP \
            PERL5LIB=$(CURDIR)/tests/perl STRICT=$(STRICT)
PROVE    := prove --harness=TAP::Harness::FlashfsSkips
check: deps all $(UNIT_BINS) $(TOOL_BINS)
	$(TEST_ENV) $(PROVE) --timer --failures --comments $(PROVE_FLAGS) $(UNIT_BINS) $(sort $(wildcard tests/integration/*.t)) $(CHECK_EXTRA)

unit: all $(UNIT_BINS)
	$(TEST_ENV) $(PROVE) --failures --comments $(PROVE_FLAGS) $(UNIT_BINS)

# One integration test or a glob: make integration T=tests/integration/sqfs_*.t
integration: all $(TOOL_BINS)
	$(TEST_ENV) $(PROVE) --failures --comments $(PROVE_FLAGS) $(or $(T),$(sort $(wildcard tests/integration/*.t)))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	$(foreach s,$(sort $(subst .,,$(suffix $(MANPAGES)))),\
	  install -d $(DESTDIR)$(PREFIX)/share/man/man$(s) && \
	  install -m 644 $(filter %.$(s),$(MANPAGES)) $(DESTDIR)$(PREFIX)/share/man/man$(s)/ &&) true

clean:
	rm -rf build

# The README's make demo + make check in a fresh debootstrapped Debian 12
# root, as CI runs them (scripts/fresh-check, issue 15).
fresh-check:
	scripts/fresh-check
-include nandsim-tests/module.mk
-include tests/fuzz/fuzz.mk
