# flashfs-tools — top-level build.
#
# Layers, bottom to top; a folder includes and links only folders to its
# left (`make layers` checks it; folders on one layer, joined by commas,
# may not use each other):
#
#   common → compress → tree → squashfs,yaffs2 → image → mtd → fuse,bench → mkfs,flashfs
#
# Every folder compiles all of its *.c files except *_main.c into
# build/lib/libff_<folder>.a.  Its module.mk names the folders it uses
# (<folder>_USES), the pkg-config packages it needs (<folder>_PKGS) and any
# other link flags (<folder>_LDLIBS).  A program (PROGRAMS += name,
# name_MAIN := folder/file_main.c, name_LINK := folders) links its main's
# folder, the folders it names, and what those use, in layer order, with
# their packages: nothing else, so mkfs.squashfs never needs libfuse3 or
# libmtd.
#
#   make              build programs into build/bin/
#   make check        install deps, build, run every test (prove summary)
#   make asan check   the same under AddressSanitizer + UBSan (build/asan/)
#   make demo         install deps, build, run the main job on the bundled rootfs
#   make layers       check includes and link lists against the layer order

LAYERS   := common compress tree squashfs,yaffs2,ubi image mtd fuse,bench mkfs,flashfs
comma    := ,
MODULES  := $(subst $(comma), ,$(LAYERS))
BUILD    ?= build
CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=

ifneq ($(filter asan,$(MAKECMDGOALS)),)
BUILD    := build/asan
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif

OPT      ?= -O2 -g
CFLAGS   ?= $(OPT)
LDFLAGS  ?=
ALL_LDFLAGS = $(SANFLAGS) $(LDFLAGS)

PROGRAMS :=
MANPAGES :=
-include $(wildcard $(addsuffix /module.mk,$(MODULES)))

# pkg-config is asked when a recipe runs, not when this file is read, so a
# first `make check` on a bare machine sees the packages `deps` installed.
pkg_cflags = $(if $(1),$(shell pkg-config --cflags $(1)))
pkg_libs   = $(if $(1),$(shell pkg-config --libs $(1)))
ALL_PKGS   = $(sort $(foreach m,$(MODULES),$($(m)_PKGS)))
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 -Wall -Wextra -Werror \
             -I. $(call pkg_cflags,$(ALL_PKGS)) $(SANFLAGS) $(CFLAGS)

# The folders a list of folders uses, directly or not, listed from the top
# layer down: the order a static link needs.
uses_closure = $(sort $(1) $(foreach m,$(1),$(call uses_closure,$($(m)_USES))))
TOPDOWN      := $(shell echo $(MODULES) | tr ' ' '\n' | tac)
link_order   = $(filter $(call uses_closure,$(1)),$(TOPDOWN))
lib_srcs     = $(filter-out %_main.c,$(wildcard $(1)/*.c))
lib_objs     = $(patsubst %.c,$(BUILD)/obj/%.o,$(call lib_srcs,$(1)))
lib_file     = $(if $(call lib_srcs,$(1)),$(BUILD)/lib/libff_$(1).a)
link_libs    = $(foreach m,$(call link_order,$(1)),$(call lib_file,$(m)))
link_flags   = $(call link_libs,$(1)) \
               $(call pkg_libs,$(sort $(foreach m,$(call link_order,$(1)),$($(m)_PKGS)))) \
               $(foreach m,$(call link_order,$(1)),$($(m)_LDLIBS)) -lpthread -lm

LIBS      := $(foreach m,$(MODULES),$(call lib_file,$(m)))
BINS      := $(addprefix $(BUILD)/bin/,$(PROGRAMS))

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(patsubst tests/tools/%.c,$(BUILD)/tests/tools/%,$(TOOL_SRCS))
# Tests sit above every layer and may use any folder.
TEST_LINK  = $(call link_flags,$(MODULES))

.PHONY: all deps check unit integration asan demo install clean fuzz layers \
        bench-mkfs bench-read bench-fuse bench-yaffs2 bench-rootfs nandsim-check
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

prog_uses = $(firstword $(subst /, ,$($(1)_MAIN))) $($(1)_LINK)
define PROG_RULE
$(BUILD)/bin/$(1): $(BUILD)/obj/$(patsubst %.c,%.o,$($(1)_MAIN)) $(call link_libs,$(call prog_uses,$(1)))
	@mkdir -p $$(dir $$@)
	$(CC) $(ALL_LDFLAGS) -o $$@ $$< $$(call link_flags,$(call prog_uses,$(1)))
endef
$(foreach p,$(PROGRAMS),$(eval $(call PROG_RULE,$(p))))

$(BUILD)/tests/%: tests/unit/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(TEST_LINK) -lcmocka

$(BUILD)/tests/tools/%: tests/tools/%.c $(LIBS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(TEST_LINK)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

deps:
	@scripts/install-deps

asan:
	@true

# The layer order, each folder's USES and each program's USES, for
# scripts/check-layers (run by `make check`).
layers:
	@LAYERS="$(LAYERS)" \
	 USES="$(foreach m,$(MODULES),$(m):$(subst $(space),$(comma),$(strip $($(m)_USES))))" \
	 PROGS="$(foreach p,$(PROGRAMS),$(p):$($(p)_MAIN):$(subst $(space),$(comma),$(strip $(call prog_uses,$(p)))))" \
	 scripts/check-layers
space := $(empty) $(empty)

# Unit tests print TAP through cmocka; integration tests are TAP shell
# scripts.  prove runs both and prints the summary CI reads.
TEST_ENV := FF_BIN=$(abspath $(BUILD)/bin) FF_TOOLS=$(abspath $(BUILD)/tests/tools) \
            FF_BUILD=$(abspath $(BUILD)) FF_TOP=$(CURDIR) CMOCKA_MESSAGE_OUTPUT=TAP
check: deps all layers $(UNIT_BINS) $(TOOL_BINS)
	$(TEST_ENV) prove --timer --failures --comments $(PROVE_FLAGS) $(UNIT_BINS) $(sort $(wildcard tests/integration/*.t)) $(CHECK_EXTRA)

unit: all $(UNIT_BINS)
	$(TEST_ENV) prove --failures --comments $(PROVE_FLAGS) $(UNIT_BINS)

# One integration test or a glob: make integration T=tests/integration/sqfs_*.t
integration: all $(TOOL_BINS)
	$(TEST_ENV) prove --failures --comments $(PROVE_FLAGS) $(or $(T),$(sort $(wildcard tests/integration/*.t)))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	$(foreach s,$(sort $(subst .,,$(suffix $(MANPAGES)))),\
	  install -d $(DESTDIR)$(PREFIX)/share/man/man$(s) && \
	  install -m 644 $(filter %.$(s),$(MANPAGES)) $(DESTDIR)$(PREFIX)/share/man/man$(s)/ &&) true

clean:
	rm -rf build
-include nandsim-tests/module.mk
-include tests/fuzz/fuzz.mk
