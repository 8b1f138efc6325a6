# SPDX-License-Identifier: GPL-2.0-or-later
# Copyright (C) 2026 The flashfs-tools authors
package TAP::Harness::FlashfsSkips;

# The harness `make check`, `make unit` and `make integration` give prove
# (--harness, with tests/perl on PERL5LIB).  It sees every SKIP in the TAP
# stream, whoever printed it: a whole file's "1..0 # SKIP reason" (tests/
# lib.sh skip_all, nandsim-check.sh) and single "ok N - name # SKIP reason"
# results (lib.sh skip, cmocka's skip(), nandsim-check.sh's notes).
#
# After prove's summary it prints how many tests were skipped and why.
# Under STRICT (STRICT=1, or CI=true as CI sets it) every skip that is not
# listed in tests/inherent-skips.txt (test file name + exact reason) is a
# parse error of its file, so the file and the run fail: on CI every
# facility exists, and a test that skips there passes silently (issue 15).

use strict;
use warnings;
use parent 'TAP::Harness';
use File::Basename qw(basename);

sub strict_mode {
	my $s = $ENV{STRICT} // '';
	return 1 if $s ne '' && $s ne '0' && $s ne 'no';
	return ( $ENV{CI} // '' ) eq 'true' ? 1 : 0;
}

# TEST<tab>REASON lines; '#' starts a comment line.
sub load_inherent {
	my ($path) = @_;
	my %ok;
	open( my $fh, '<', $path ) or die "inherent skips: $path: $!\n";
	while ( my $line = <$fh> ) {
		chomp $line;
		next if $line =~ /^\s*(#|$)/;
		my ( $test, $reason ) = split /\t+/, $line, 2;
		die "inherent skips: $path:$.: want TEST<tab>REASON\n" unless defined $reason;
		$ok{"$test\t$reason"} = 1;
	}
	return \%ok;
}

sub _initialize {
	my ( $self, $args ) = @_;
	$self->SUPER::_initialize($args) or return;
	my $top = $ENV{FF_TOP} // '.';
	$self->{ff_list}     = $ENV{FF_INHERENT_SKIPS} // "$top/tests/inherent-skips.txt";
	$self->{ff_inherent} = load_inherent( $self->{ff_list} );
	$self->{ff_strict}   = strict_mode();
	$self->{ff_skips}    = [];
	$self->callback( made_parser    => sub { $self->_watch(@_) } );
	$self->callback( after_runtests => sub { $self->_report } );
	return $self;
}

sub _watch {
	my ( $self, $parser, $job ) = @_;
	my $test = basename( $job->[0] );
	my @mine;
	my $note = sub {
		my ( $what, $reason ) = @_;
		$reason //= '';
		my $s = {
			test     => $test,
			what     => $what,
			reason   => $reason,
			inherent => $self->{ff_inherent}{"$test\t$reason"} ? 1 : 0,
		};
		push @mine, $s;
		push @{ $self->{ff_skips} }, $s;
	};
	$parser->callback( plan => sub {
		my $r = shift;
		$note->( 'all', $r->explanation ) if $r->has_skip;
	} );
	$parser->callback( test => sub {
		my $r = shift;
		return unless $r->has_skip;
		( my $what = $r->description // '' ) =~ s/^-\s*//;
		$note->( $what, $r->explanation );
	} );
	$parser->callback( EOF => sub {
		return unless $self->{ff_strict};
		for my $s ( grep { !$_->{inherent} } @mine ) {
			my $what = $s->{what} =~ /^(all)?$/ ? '' : " ($s->{what})";
			$parser->_add_error( "SKIP under STRICT/CI$what: "
				  . ( $s->{reason} eq '' ? '(no reason given)' : $s->{reason} )
				  . " -- not an inherent skip in $self->{ff_list}" );
		}
	} );
	return;
}

sub _report {
	my ($self) = @_;
	my @all      = @{ $self->{ff_skips} };
	my $inherent = grep { $_->{inherent} } @all;
	my $other    = @all - $inherent;
	printf "Skips: %d (%d inherent to this build, %d other)%s\n", scalar @all,
	  $inherent, $other,
	  $self->{ff_strict} ? ( $other ? '; STRICT: the other skips FAIL the run' : '; STRICT' ) : '';
	for my $s (@all) {
		printf "  %s %s%s: %s\n", $s->{inherent} ? 'inherent' : ( $self->{ff_strict} ? 'FAIL    ' : 'skipped ' ),
		  $s->{test}, $s->{what} =~ /^(all)?$/ ? '' : " ($s->{what})",
		  $s->{reason} eq '' ? '(no reason given)' : $s->{reason};
	}
	return;
}

1;
