"""Our own geography for the Axis & Allies Revised (LHTR 2.0) world map.

Nothing here comes from the TripleA XML or from the printed board art: every point is a real
place picked by hand from real geography (longitude, latitude in degrees, east and north
positive), with a note saying what it is.  ``scripts/build_lhtr_map.py`` turns these tables
into the shapes in ``rulesets/aarhe/lhtr/map.json``; the connections between spaces
always come from the XML, never from here.

How a land territory gets its shape
    ``countries``: Natural Earth 1:110m countries (their ``name`` field) that belong to it
    whole.  ``split``: countries shared with other territories: each such country is cut
    into Voronoi cells of the seed points (``at`` plus ``seeds``) of every territory that
    lists it, so ``seeds`` are the handles that move a border.  ``PARTS`` moves single
    islands/exclaves of a country elsewhere (or drops them); ``ISLANDS`` adds small islands
    that the 1:110m data does not have; ``CARVED`` cuts a small territory out of a bigger one.

How a sea zone gets its shape
    Voronoi cells of the zone's seeds (``at`` plus ``seeds``), clipped to the sea.  The sea
    numbering is the Revised board's (the XML's "N Sea Zone"); each zone is placed between the
    coasts and the neighbouring zones the XML gives it.

``at`` is the label point: it must lie inside the finished shape (the build checks it).
"""

from __future__ import annotations

#: The map is cut on this meridian, in the Bering Strait: x runs from CUT_LON to CUT_LON+360
#: (the Americas on the left, Asia and the western Pacific on the right; a longitude west of
#: the cut is written lon + 360).  Latitudes outside LAT_RANGE are not drawn.
CUT_LON = -169.0
LAT_RANGE = (-60.0, 84.0)

# ---------------------------------------------------------------------------------------
# Land territories (the XML's 79 names)
# ---------------------------------------------------------------------------------------

LAND: dict[str, dict] = {
    "Afghanistan": dict(
        at=(66.0, 33.8), note="central Afghanistan, the Hazarajat between Kabul and Herat",
        countries=("Afghanistan",)),
    "Alaska": dict(
        at=(-150.5, 64.0), note="interior Alaska, south-west of Fairbanks",
        countries=()),  # Alaska's parts of the USA polygon: see PARTS
    "Algeria": dict(
        at=(3.25, 34.7), note="the High Plateaux of northern Algeria at Djelfa; with Morocco "
        "and Tunisia (French North Africa)",
        countries=("Morocco", "Tunisia"), split=("Algeria",),
        seeds=((-1.3, 34.9), (6.6, 36.0), (3.7, 32.5), (-0.5, 32.0), (8.5, 33.0))),
    "Anglo Egypt": dict(
        at=(30.5, 20.5), note="the Nile between Egypt and the Sudan, near Dongola; Egypt with "
        "the Anglo-Egyptian Sudan",
        countries=("Egypt", "Sudan", "S. Sudan")),
    "Angola": dict(
        at=(17.5, -12.5), note="the central Angolan plateau (Bié)", countries=("Angola",)),
    "Archangel": dict(
        at=(45.0, 63.0), note="Arkhangelsk oblast, up the Northern Dvina from Arkhangelsk; "
        "north-east European Russia to the polar Urals",
        split=("Russia",),
        seeds=((40.5, 64.5), (50.8, 61.7), (53.0, 67.6), (63.5, 67.5), (46.6, 61.3),
               (56.0, 64.0), (39.9, 59.7))),
    "Argentina": dict(
        at=(-64.0, -34.5), note="the Pampas between Córdoba and Buenos Aires; with Chile, "
        "Uruguay and Paraguay",
        countries=("Argentina", "Chile", "Uruguay", "Paraguay", "Falkland Is.")),
    "Australia": dict(
        at=(133.5, -24.5), note="the centre of Australia, near Alice Springs",
        countries=("Australia",)),
    "Balkans": dict(
        at=(21.0, 44.0), note="Serbia, south-east of Belgrade; the Danube and the Balkans: "
        "Slovakia, Hungary, Romania, Yugoslavia, Albania, Bulgaria and Greece",
        countries=("Hungary", "Slovakia", "Romania", "Bulgaria", "Greece", "Albania", "Slovenia",
                   "Croatia", "Bosnia and Herz.", "Serbia", "Montenegro", "North Macedonia",
                   "Kosovo")),
    "Belgian Congo": dict(
        at=(23.5, -2.0), note="the central Congo basin; with Ruanda-Urundi",
        countries=("Dem. Rep. Congo", "Rwanda", "Burundi")),
    "Belorussia": dict(
        at=(28.0, 53.7), note="Belorussia, south-west of Minsk", countries=("Belarus",)),
    "Borneo": dict(
        at=(114.0, 0.5), note="the interior of Borneo", countries=("Brunei",)),
    "Brazil": dict(
        at=(-50.0, -10.0), note="central Brazil (Tocantins); with the three Guianas",
        countries=("Brazil", "Guyana", "Suriname")),
    "Buryatia S.S.R.": dict(
        at=(112.0, 52.5), note="Transbaikalia between Ulan-Ude and Chita; on to the Amur and "
        "the Pacific coast at Vladivostok",
        split=("Russia",),
        seeds=((107.6, 51.8), (113.5, 52.0), (121.0, 53.0), (127.5, 50.3), (135.1, 48.5),
               (133.0, 44.5), (138.5, 51.0))),
    "Caroline Islands": dict(
        at=(151.8, 7.4), note="Truk (Chuuk) lagoon, the Japanese base in the Carolines",
        countries=()),  # islands: see ISLANDS
    "Caucasus": dict(
        at=(44.5, 43.3), note="the North Caucasus near Ordzhonikidze; Transcaucasia and the "
        "lower Don and Volga up to Stalingrad",
        countries=("Georgia", "Armenia", "Azerbaijan"), split=("Russia",),
        seeds=((44.5, 48.7), (39.7, 47.2), (39.0, 45.0), (47.5, 46.3), (42.0, 45.0))),
    "Central United States": dict(
        at=(-98.0, 39.0), note="the Great Plains, central Kansas",
        split=("United States of America",),
        seeds=((-100.5, 46.5), (-93.3, 45.0), (-90.2, 38.6), (-97.5, 31.5), (-102.0, 33.5),
               (-92.0, 34.5))),
    "China": dict(
        at=(106.5, 30.0), note="the Sichuan basin near Chungking, Free China's capital",
        split=("China",),
        seeds=((104.0, 30.7), (108.9, 34.3), (103.8, 36.1), (102.7, 25.0), (111.7, 40.8),
               (112.5, 37.9), (109.5, 27.5), (100.5, 27.0), (106.0, 38.5))),
    "East Indies": dict(
        at=(110.0, -7.3), note="central Java; the Dutch East Indies but Borneo and New Guinea",
        countries=("Timor-Leste", "Indonesia")),  # Borneo and New Guinea parts: see PARTS
    "Eastern Canada": dict(
        at=(-76.0, 49.0), note="Quebec, north of Ottawa (Abitibi); Ontario east of the lakes, "
        "the Maritimes, Labrador and the eastern Arctic",
        split=("Canada",),
        seeds=((-75.7, 45.4), (-71.2, 46.8), (-63.6, 45.0), (-61.0, 53.0), (-72.0, 56.5),
               (-81.3, 48.5), (-70.0, 68.0), (-86.0, 52.0), (-84.0, 72.0), (-56.0, 49.0))),
    "Eastern Europe": dict(
        at=(20.0, 52.5), note="central Poland, west of Warsaw; with the Baltic states",
        countries=("Poland", "Lithuania", "Latvia", "Estonia")),
    "Eastern United States": dict(
        at=(-80.0, 37.5), note="the Virginias, south-west of Washington",
        split=("United States of America",),
        seeds=((-77.0, 38.9), (-74.0, 40.7), (-84.4, 33.7), (-83.0, 42.3), (-81.7, 28.0),
               (-86.8, 36.2), (-70.0, 44.5), (-88.5, 42.0))),
    "Eire": dict(at=(-8.0, 53.2), note="the Irish midlands", countries=("Ireland",)),
    "Evenki National Okrug": dict(
        at=(100.2, 64.3), note="Tura, capital of the Evenk national okrug; north-central "
        "Siberia from the lower Ob to the Taymyr",
        split=("Russia",),
        seeds=((88.2, 69.3), (69.0, 61.0), (67.5, 66.0), (77.0, 65.0), (95.0, 60.5),
               (105.0, 72.0), (80.0, 60.0))),
    "French Equatorial Africa": dict(
        at=(19.0, 6.0), note="Ubangi-Shari (the Central African Republic); with Cameroon, "
        "Nigeria, Gabon, the Congo and southern Chad",
        countries=("Central African Rep.", "Congo", "Gabon", "Cameroon", "Eq. Guinea",
                   "Nigeria"),
        split=("Chad",), seeds=((15.05, 12.1), (20.8, 13.8))),
    "French Indochina": dict(
        at=(105.0, 16.5), note="central Indochina (Laos and Annam); with Siam and Malaya",
        countries=("Vietnam", "Laos", "Cambodia", "Thailand")),  # Malaya: see PARTS
    "French Madagascar": dict(
        at=(46.8, -19.0), note="the central highlands of Madagascar", countries=("Madagascar",)),
    "French West Africa": dict(
        at=(-6.0, 13.5), note="the middle Niger at Ségou; West Africa from Senegal to Dahomey",
        countries=("Senegal", "Gambia", "Guinea-Bissau", "Guinea", "Sierra Leone", "Liberia",
                   "Côte d'Ivoire", "Burkina Faso", "Ghana", "Togo", "Benin", "Mauritania"),
        split=("Mali", "Niger"),
        seeds=((-8.0, 12.65), (2.1, 13.5), (-3.0, 15.5), (9.0, 13.8), (-10.0, 15.0))),
    "Germany": dict(
        at=(11.0, 51.0), note="Thuringia, the middle of Germany; with Austria, the Czech lands "
        "and Denmark",
        countries=("Germany", "Austria", "Czechia", "Denmark")),
    "Gibraltar": dict(
        at=(-5.6, 36.4), note="the Rock of Gibraltar and the Campo behind it (drawn larger than "
        "life)",
        countries=()),  # see CARVED
    "Greenland": dict(
        at=(-42.0, 72.0), note="the Greenland ice sheet; with Iceland (both Danish in 1941 and "
        "both garrisoned by the Allies)",
        countries=("Greenland", "Iceland")),
    "Hawaiian Islands": dict(
        at=(-155.5, 19.6), note="the island of Hawaii", countries=()),  # see PARTS
    "Himalaya": dict(
        at=(91.1, 29.65), note="Lhasa; Tibet with Nepal and Bhutan",
        countries=("Nepal", "Bhutan"), split=("China",),
        seeds=((85.0, 32.0), (80.5, 32.5), (97.2, 31.1), (95.5, 34.5), (89.0, 34.0))),
    "India": dict(
        at=(78.5, 22.0), note="central India near Nagpur; British India with Burma and Ceylon",
        countries=("India", "Pakistan", "Bangladesh", "Sri Lanka", "Myanmar")),
    "Italian East Africa": dict(
        at=(40.0, 8.0), note="the Ethiopian highlands south-east of Addis Ababa; with Eritrea "
        "and the Somalilands",
        countries=("Ethiopia", "Eritrea", "Somalia", "Djibouti", "Somaliland")),
    "Japan": dict(at=(138.5, 36.2), note="central Honshu", countries=("Japan",)),
    "Karelia S.S.R.": dict(
        at=(33.0, 62.0), note="Karelia near Petrozavodsk; Leningrad, Novgorod and the Kola "
        "peninsula",
        split=("Russia",),
        seeds=((30.3, 59.9), (34.4, 61.8), (33.1, 68.0), (31.3, 58.5), (28.3, 57.8))),
    "Kazakh S.S.R.": dict(
        at=(67.0, 48.0), note="the Kazakh steppe; Soviet Central Asia",
        countries=("Kazakhstan", "Uzbekistan", "Turkmenistan", "Kyrgyzstan", "Tajikistan")),
    "Kenya": dict(
        at=(37.5, 0.3), note="central Kenya near Mount Kenya; British East and Central Africa "
        "from Uganda to Southern Rhodesia",
        countries=("Kenya", "Uganda", "Tanzania", "Zambia", "Malawi", "Zimbabwe")),
    "Kwantung": dict(
        at=(113.3, 23.6), note="Canton (Kwangtung province); the occupied coast of China up to "
        "Shanghai and Shantung",
        split=("China",),
        seeds=((121.5, 31.2), (119.3, 26.1), (118.8, 32.1), (114.3, 30.6), (116.5, 27.5),
               (117.0, 36.7), (120.4, 36.1), (109.5, 19.0), (110.5, 23.0))),
    "Libya": dict(
        at=(17.0, 30.3), note="the Sirte desert between Tripolitania and Cyrenaica",
        split=("Libya",),
        seeds=((13.2, 32.5), (20.1, 32.0), (16.6, 31.0), (23.9, 31.5), (12.0, 30.0),
               (22.5, 29.5))),
    "Manchuria": dict(
        at=(126.6, 45.75), note="Harbin; Manchukuo with Korea and Japanese-held north China "
        "around Peking",
        countries=("North Korea", "South Korea"), split=("China",),
        seeds=((123.4, 41.8), (119.7, 49.2), (116.4, 39.9), (130.3, 46.8), (120.0, 43.0),
               (125.3, 43.9))),
    "Mexico": dict(at=(-102.5, 23.5), note="Zacatecas, central Mexico", countries=("Mexico",)),
    "Midway": dict(at=(-177.37, 28.21), note="Midway Atoll", countries=()),  # see ISLANDS
    "Mongolia": dict(at=(103.0, 46.5), note="central Mongolia", countries=("Mongolia",)),
    "Mozambique": dict(
        at=(37.5, -15.0), note="northern Mozambique (Nampula–Cuamba)", countries=("Mozambique",)),
    "New Guinea": dict(
        at=(143.5, -6.0), note="the highlands of New Guinea",
        countries=("Papua New Guinea",)),  # Dutch New Guinea and Bougainville: see PARTS
    "New Zealand": dict(
        at=(176.0, -38.7), note="Lake Taupo, the middle of the North Island",
        countries=("New Zealand",)),
    "Norway": dict(
        at=(9.0, 61.5), note="Jotunheimen, southern Norway; with Finland and Svalbard",
        countries=("Norway", "Finland")),
    "Novosibirsk": dict(
        at=(80.0, 55.0), note="the Baraba steppe west of Novosibirsk; south-western Siberia",
        split=("Russia",),
        seeds=((82.9, 55.0), (73.4, 55.0), (85.0, 56.5), (83.8, 53.3), (92.9, 56.0),
               (65.3, 55.4), (88.0, 52.0))),
    "Okinawa": dict(
        at=(127.9, 26.5), note="Okinawa; the Ryukyus, with Formosa (Taiwan), Japanese since 1895",
        countries=("Taiwan",)),  # Okinawa itself: see ISLANDS
    "Panama": dict(
        at=(-85.5, 13.0), note="Nicaragua, the middle of the Central American isthmus that the "
        "board's Panama covers",
        countries=("Guatemala", "Belize", "El Salvador", "Honduras", "Nicaragua", "Costa Rica",
                   "Panama")),
    "Persia": dict(
        at=(53.5, 33.0), note="central Iran between Isfahan and Yazd", countries=("Iran",)),
    "Peru": dict(
        at=(-75.5, -9.5), note="Huánuco in the Peruvian Andes; with Ecuador and Bolivia",
        countries=("Peru", "Ecuador", "Bolivia")),
    "Philipine Islands": dict(
        at=(121.0, 15.5), note="central Luzon, north of Manila", countries=("Philippines",)),
    "Rio De Oro": dict(
        at=(-12.6, 24.2), note="inland Río de Oro (Spanish Sahara)", countries=("W. Sahara",)),
    "Russia": dict(
        at=(40.4, 56.1), note="Vladimir, east of Moscow; central Russia to the Urals",
        split=("Russia",),
        seeds=((37.6, 55.75), (44.0, 56.3), (49.1, 55.8), (56.2, 58.0), (56.0, 54.7),
               (60.6, 56.8), (49.7, 58.6), (39.9, 57.6), (50.1, 53.2), (46.0, 51.5),
               (61.4, 55.2), (55.0, 51.8))),
    "Sahara": dict(
        at=(9.0, 21.5), note="the Ténéré and the Aïr, northern Niger; the central Sahara",
        split=("Algeria", "Libya", "Mali", "Niger", "Chad"),
        seeds=((1.0, 25.5), (6.5, 24.0), (-3.0, 26.5), (14.4, 26.0), (22.0, 24.0),
               (-3.0, 21.5), (1.0, 19.5), (12.9, 19.0), (18.5, 20.5), (22.0, 17.5),
               (-6.0, 22.0), (10.0, 27.0))),
    "Saudi Arabia": dict(
        at=(45.0, 24.0), note="the Najd near Riyadh; Arabia",
        countries=("Saudi Arabia", "Yemen", "Oman", "United Arab Emirates", "Qatar",
                   "Kuwait")),
    "Sinkiang": dict(
        at=(85.5, 41.5), note="the Tarim basin near Korla; Chinese Turkestan",
        split=("China",),
        seeds=((87.6, 43.8), (76.0, 39.5), (80.0, 37.1), (93.5, 42.8), (88.0, 38.5),
               (84.0, 46.0))),
    "Solomon Islands": dict(
        at=(160.1, -9.5), note="Guadalcanal", countries=("Solomon Is.",)),
    "Southern Europe": dict(
        at=(12.5, 42.5), note="central Italy between Rome and Perugia", countries=("Italy",)),
    "Soviet Far East": dict(
        at=(159.0, 56.5), note="central Kamchatka; the Far North-East from Okhotsk and Magadan "
        "to the Chukchi peninsula",
        split=("Russia",),
        seeds=((150.8, 59.6), (143.2, 59.4), (152.4, 63.0), (177.5, 64.7), (-175.0, 66.5),
               (165.0, 61.5), (160.0, 67.5))),
    "Spain": dict(
        at=(-4.0, 40.0), note="the Meseta south-west of Madrid; Iberia (with Portugal)",
        countries=("Spain", "Portugal")),
    "Sweden": dict(at=(15.0, 62.0), note="central Sweden (Jämtland–Dalarna)",
                   countries=("Sweden",)),
    "Switzerland": dict(at=(8.2, 46.8), note="central Switzerland", countries=("Switzerland",)),
    "Trans-Jordan": dict(
        at=(36.9, 31.0), note="Trans-Jordan east of the Dead Sea; with Palestine, Lebanon, "
        "Syria and Iraq",
        countries=("Jordan", "Israel", "Palestine", "Lebanon", "Syria", "Iraq")),
    "Turkey": dict(
        at=(35.0, 39.0), note="central Anatolia near Kayseri", countries=("Turkey",)),
    "Ukraine S.S.R.": dict(
        at=(31.5, 49.3), note="central Ukraine on the Dnieper (Cherkassy); with Moldavia",
        countries=("Ukraine", "Moldova")),
    "Union of South Africa": dict(
        at=(24.5, -29.0), note="the Northern Cape near Kimberley; with South-West Africa and "
        "the High Commission territories",
        countries=("South Africa", "Lesotho", "eSwatini", "Namibia", "Botswana")),
    "United Kingdom": dict(
        at=(-1.8, 53.0), note="the English Midlands", countries=("United Kingdom",)),
    "Venezuela": dict(
        at=(-66.0, 7.5), note="the Venezuelan llanos; with Colombia",
        countries=("Venezuela", "Colombia")),
    "Wake Island": dict(at=(166.63, 19.29), note="Wake Island", countries=()),  # see ISLANDS
    "West Indies": dict(
        at=(-78.5, 21.7), note="Camagüey, Cuba; the Greater Antilles and the Bahamas",
        countries=("Cuba", "Haiti", "Dominican Rep.", "Jamaica", "Puerto Rico", "Bahamas",
                   "Trinidad and Tobago")),
    "West Russia": dict(
        at=(34.5, 53.0), note="Bryansk, between Smolensk and Kursk",
        split=("Russia",),
        seeds=((32.0, 54.8), (36.2, 51.7), (39.2, 51.7), (36.0, 54.3), (30.5, 56.3),
               (35.0, 57.5), (36.5, 58.7))),
    "Western Canada": dict(
        at=(-114.0, 55.0), note="north-central Alberta; the Prairies, British Columbia, the "
        "Yukon and the western Arctic",
        split=("Canada",),
        seeds=((-123.1, 49.3), (-97.1, 49.9), (-106.6, 52.1), (-135.0, 63.0), (-115.0, 64.0),
               (-97.0, 58.0), (-110.0, 71.0), (-95.0, 66.0), (-126.0, 55.0))),
    "Western Europe": dict(
        at=(2.5, 47.0), note="Bourges, the middle of France; with the Low Countries",
        countries=("France", "Belgium", "Netherlands", "Luxembourg")),
    "Western United States": dict(
        at=(-120.0, 37.3), note="California's Central Valley between San Francisco and the "
        "Sierra; the Pacific and Mountain states",
        split=("United States of America",),
        seeds=((-122.3, 47.6), (-116.2, 43.6), (-111.9, 40.8), (-112.0, 33.4),
               (-108.5, 45.8), (-106.0, 39.5), (-106.6, 35.1))),
    "Yakut S.S.R.": dict(
        at=(125.0, 63.0), note="the Vilyuy basin west of Yakutsk; Yakutia with the upper Lena "
        "down to Irkutsk",
        split=("Russia",),
        seeds=((129.7, 62.0), (133.4, 67.5), (114.0, 62.5), (128.9, 71.6), (120.4, 60.4),
               (104.3, 52.3), (106.0, 57.0), (142.0, 68.0), (138.0, 61.0))),
}

#: Countries of the 1:110m data that no territory takes: they are not drawn.
UNASSIGNED: dict[str, str] = {
    "Antarctica": "south of the board",
    "Fr. S. Antarctic Lands": "Kerguelen: not on the board",
    "New Caledonia": "not a territory on the board",
    "Vanuatu": "not a territory on the board",
    "Fiji": "not a territory on the board (and it straddles 180°)",
    "Cyprus": "not a territory on the board",
    "N. Cyprus": "not a territory on the board",
}

#: Single parts (islands, exclaves) of a multi-part country that go elsewhere:
#: (country, a point inside or next to the part, territory or None to drop it, note).
PARTS: list[tuple[str, tuple[float, float], str | None, str]] = [
    ("United States of America", (-152.9, 62.8), "Alaska", "mainland Alaska"),
    ("United States of America", (-153.7, 57.3), "Alaska", "Kodiak Island"),
    ("United States of America", (-166.4, 60.1), "Alaska", "Nunivak Island"),
    ("United States of America", (-170.6, 63.4), None,
     "St. Lawrence Island: west of the cut, dropped"),
    ("United States of America", (-155.5, 19.6), "Hawaiian Islands", "Hawaii"),
    ("United States of America", (-156.4, 20.8), "Hawaiian Islands", "Maui"),
    ("United States of America", (-157.0, 21.1), "Hawaiian Islands", "Molokai"),
    ("United States of America", (-158.0, 21.4), "Hawaiian Islands", "Oahu"),
    ("United States of America", (-159.5, 22.0), "Hawaiian Islands", "Kauai"),
    ("France", (-53.0, 3.9), "Brazil", "French Guiana"),
    ("Malaysia", (102.1, 3.8), "French Indochina", "Malaya"),
    ("Malaysia", (114.5, 3.5), "Borneo", "Sarawak and North Borneo"),
    ("Indonesia", (113.3, -0.2), "Borneo", "Dutch Borneo (Kalimantan)"),
    ("Indonesia", (139.0, -5.0), "New Guinea", "Dutch New Guinea"),
    ("Papua New Guinea", (155.1, -6.1), "Solomon Islands", "Bougainville"),
    ("Russia", (21.3, 54.7), "Eastern Europe", "Königsberg (East Prussia)"),
    ("Russia", (143.1, 50.2), "Soviet Far East", "Sakhalin"),
]

#: Small islands that the 1:110m data lacks: territory -> [(lon, lat, radius in degrees,
#: note)].  Each is drawn as a small octagon, carved out of the sea.
ISLANDS: dict[str, list[tuple[float, float, float, str]]] = {
    "Midway": [(-177.37, 28.21, 0.8, "Midway Atoll")],
    "Wake Island": [(166.63, 19.29, 0.8, "Wake Island")],
    "Caroline Islands": [
        (151.8, 7.4, 0.9, "Truk (Chuuk)"),
        (158.2, 6.9, 0.6, "Ponape (Pohnpei)"),
        (138.1, 9.5, 0.5, "Yap"),
        (134.5, 7.4, 0.6, "Palau"),
    ],
    "Okinawa": [(127.9, 26.5, 0.8, "Okinawa")],
}

#: Small territories cut out of a bigger one: territory -> [(lon, lat, radius, note)].
CARVED: dict[str, list[tuple[float, float, float, str]]] = {
    "Gibraltar": [(-5.35, 36.14, 0.7, "the Rock of Gibraltar")],
}

# ---------------------------------------------------------------------------------------
# Sea zones (the Revised board's numbering, "N Sea Zone" in the XML)
# ---------------------------------------------------------------------------------------

SEA: dict[int, dict] = {
    1: dict(at=(-54.0, 58.0), note="the Labrador Sea, off Labrador and Cape Farewell",
            seeds=((-59.0, 63.5), (-50.0, 55.5), (-46.0, 60.5))),
    2: dict(at=(-25.0, 61.0), note="the northern Atlantic between Greenland, Iceland and "
            "Ireland",
            seeds=((-30.0, 65.0), (-14.0, 56.0), (-13.0, 53.0), (-18.0, 72.0), (-8.0, 58.5))),
    3: dict(at=(2.0, 66.0), note="the Norwegian Sea",
            seeds=((-4.0, 61.0), (12.0, 70.0), (0.0, 74.0), (15.0, 76.0))),
    4: dict(at=(38.0, 72.5), note="the Barents Sea, off Murmansk and Archangel",
            seeds=((39.0, 66.2), (50.0, 71.0), (32.0, 70.5), (45.0, 77.0), (62.0, 74.5))),
    5: dict(at=(18.5, 56.5), note="the Baltic Sea",
            seeds=((24.0, 59.7), (20.0, 62.0), (21.5, 64.5), (12.0, 55.5), (14.5, 54.8))),
    6: dict(at=(3.5, 55.5), note="the North Sea",
            seeds=((3.0, 58.5), (8.5, 57.8), (2.0, 52.5))),
    7: dict(at=(-6.0, 47.5), note="the Bay of Biscay and the English Channel",
            seeds=((-2.0, 50.0), (-4.0, 45.0))),
    8: dict(at=(-22.0, 50.0), note="the Atlantic west of the British Isles (the Western "
            "Approaches)",
            seeds=((-13.0, 49.0), (-32.0, 52.0), (-24.0, 45.0), (-7.0, 50.3))),
    9: dict(at=(-50.0, 44.5), note="the Atlantic off Newfoundland and Nova Scotia",
            seeds=((-62.0, 47.5), (-40.0, 46.0), (-62.0, 41.5), (-67.0, 43.5))),
    10: dict(at=(-72.0, 34.0), note="the Atlantic off the US east coast, with the Gulf of "
             "Mexico",
             seeds=((-90.0, 25.5), (-94.0, 27.5), (-84.0, 24.5), (-70.0, 39.5), (-77.0, 31.0),
                    (-87.0, 28.5))),
    11: dict(at=(-48.0, 30.0), note="the central North Atlantic (Sargasso Sea)",
             seeds=((-56.0, 36.0), (-40.0, 24.0), (-60.0, 27.0))),
    12: dict(at=(-17.0, 36.0), note="the eastern Atlantic off Portugal and Morocco",
             seeds=((-20.0, 30.0), (-13.0, 41.0), (-12.0, 33.0), (-30.0, 38.0), (-27.0, 27.0))),
    13: dict(at=(4.0, 39.0), note="the western Mediterranean",
             seeds=((-3.0, 36.2), (4.5, 42.3), (8.0, 38.0))),
    14: dict(at=(17.5, 35.0), note="the central Mediterranean, between Sicily and Libya",
             seeds=((12.0, 40.0), (15.5, 43.0), (19.0, 38.0), (18.0, 32.5), (11.5, 36.5))),
    15: dict(at=(31.0, 33.5), note="the eastern Mediterranean (Levantine Sea)",
             seeds=((27.0, 34.0), (34.5, 35.8))),
    16: dict(at=(34.0, 43.3), note="the Black Sea, with the Aegean",
             seeds=((25.0, 38.5), (25.0, 40.3), (28.0, 40.7), (36.5, 46.0), (30.5, 44.0),
                    (39.5, 42.5))),
    17: dict(at=(-22.0, 16.0), note="the Atlantic off West Africa (Cape Verde)",
             seeds=((-20.0, 24.0), (-16.0, 6.0), (-8.0, 2.5))),
    18: dict(at=(-38.0, 8.0), note="the equatorial Atlantic off the mouth of the Amazon",
             seeds=((-48.0, 5.0), (-30.0, 14.0), (-28.0, 2.0), (-34.0, 19.0))),
    19: dict(at=(-74.0, 15.0), note="the Caribbean Sea",
             seeds=((-83.0, 17.0), (-65.0, 14.5), (-72.0, 23.5), (-80.0, 12.0), (-86.0, 20.0))),
    20: dict(at=(-85.0, 6.0), note="the Pacific off Panama and Colombia",
             seeds=((-79.0, 7.5), (-92.0, 10.0), (-80.0, 2.0), (-88.0, 0.0))),
    21: dict(at=(-82.0, -14.0), note="the Pacific off Peru and Chile",
             seeds=((-76.0, -30.0), (-80.0, -42.0), (-84.0, -5.0))),
    22: dict(at=(-30.0, -12.0), note="the South Atlantic off Brazil",
             seeds=((-38.0, -23.0), (-33.0, -3.0), (-15.0, -3.0), (-22.0, -7.0), (-9.0, -1.0))),
    23: dict(at=(4.0, 0.0), note="the Gulf of Guinea",
             seeds=((7.0, 3.0), (10.0, -5.0), (0.0, 3.5))),
    24: dict(at=(-8.0, -18.0), note="the South Atlantic around St Helena",
             seeds=((-22.0, -28.0), (-36.0, -34.0), (0.0, -15.0))),
    25: dict(at=(-52.0, -42.0), note="the Atlantic off Argentina, round Cape Horn",
             seeds=((-54.0, -35.5), (-63.0, -57.5), (-77.0, -55.5), (-58.0, -50.0))),
    26: dict(at=(-15.0, -44.0), note="the far South Atlantic (Tristan da Cunha)",
             seeds=((-32.0, -50.0), (2.0, -47.0))),
    27: dict(at=(7.0, -20.0), note="the South Atlantic off Angola and South-West Africa",
             seeds=((10.0, -28.0), (10.0, -11.0), (12.0, -33.5))),
    28: dict(at=(27.0, -38.0), note="the Indian Ocean off the Cape and Natal",
             seeds=((36.0, -30.0), (20.0, -38.0), (40.0, -27.0))),
    29: dict(at=(50.0, -31.0), note="the Indian Ocean south of Madagascar",
             seeds=((45.0, -40.0), (55.0, -38.0))),
    30: dict(at=(75.0, -40.0), note="the southern Indian Ocean",
             seeds=((62.0, -47.0), (90.0, -45.0), (103.0, -42.0), (65.0, -33.0))),
    31: dict(at=(78.0, -12.0), note="the central Indian Ocean (Chagos)",
             seeds=((90.0, -20.0), (76.0, -22.0), (72.0, -3.0))),
    32: dict(at=(58.0, -12.0), note="the western Indian Ocean: Seychelles and Mascarenes",
             seeds=((55.0, -4.0), (60.0, -22.0), (58.0, 4.0), (63.0, 10.0))),
    33: dict(at=(41.0, -18.0), note="the Mozambique Channel",
             seeds=((42.0, -10.0), (43.5, -4.0), (36.5, -24.0))),
    34: dict(at=(38.0, 20.5), note="the Red Sea, the Gulf of Aden, the Arabian Sea off Arabia "
             "and the Persian Gulf",
             seeds=((33.5, 27.5), (41.0, 15.5), (46.0, 12.3), (52.0, 13.5), (58.0, 18.0),
                    (59.0, 23.5), (51.5, 26.5), (49.5, 28.8), (62.0, 22.0), (55.0, 16.0))),
    35: dict(at=(80.0, 5.0), note="the seas round India: the Arabian Sea and the Bay of Bengal",
             seeds=((66.0, 18.0), (70.0, 10.0), (88.0, 15.0), (90.0, 8.0), (91.0, 19.0),
                    (73.0, 15.0))),
    36: dict(at=(112.0, 12.0), note="the South China Sea, with the Gulf of Siam and the "
             "Andaman Sea",
             seeds=((101.5, 10.0), (96.5, 11.0), (99.0, 5.0), (107.5, 19.5), (105.0, 3.0),
                    (110.0, 7.0), (94.0, 7.0))),
    37: dict(at=(108.0, -5.0), note="the Java Sea and the Indian Ocean off Sumatra and Java",
             seeds=((95.0, -3.0), (103.0, -9.0), (112.0, -11.0), (118.0, -6.5),
                    (123.0, -7.0), (89.0, 0.0))),
    38: dict(at=(115.0, -17.0), note="the Indian Ocean off north-western Australia (Timor Sea)",
             seeds=((107.0, -24.0), (125.0, -12.0), (110.0, -32.0), (128.0, -10.0))),
    39: dict(at=(130.0, -38.0), note="the Great Australian Bight",
             seeds=((117.0, -38.0), (140.0, -42.0), (145.0, -47.0))),
    40: dict(at=(157.0, -38.0), note="the Tasman Sea",
             seeds=((150.0, -44.0), (155.0, -31.0))),
    41: dict(at=(170.0, -36.0), note="the seas round New Zealand",
             seeds=((179.0, -43.0), (166.0, -48.0), (178.0, -31.0), (168.0, -42.5))),
    42: dict(at=(-160.0, -45.0), note="the South Pacific east of New Zealand",
             seeds=((-130.0, -50.0), (-105.0, -55.0), (-175.0, -50.0))),
    43: dict(at=(-105.0, -25.0), note="the south-eastern Pacific (Easter Island)",
             seeds=((-100.0, -8.0), (-115.0, 2.0), (-95.0, -40.0))),
    44: dict(at=(-150.0, -18.0), note="the central South Pacific (Tahiti)",
             seeds=((-170.0, -15.0), (-140.0, -8.0), (-130.0, -28.0))),
    45: dict(at=(164.0, -9.0), note="the Solomon Islands, the Santa Cruz Islands and the seas "
             "east to the Gilberts",
             seeds=((172.0, -10.0), (178.0, -17.0), (172.0, 0.0), (-178.0, -4.0),
                    (157.0, -6.5), (166.0, -17.5))),
    46: dict(at=(153.0, -17.0), note="the Coral Sea",
             seeds=((158.0, -24.0), (148.0, -12.0))),
    47: dict(at=(137.0, -9.0), note="the seas round New Guinea: Arafura Sea, Gulf of Carpentaria, Bismarck "
             "Sea",
             seeds=((131.0, -4.5), (146.0, -1.5), (152.5, -7.0), (139.0, -1.0),
                    (143.0, -10.0), (139.5, -14.5))),
    48: dict(at=(122.5, 3.0), note="the Celebes Sea and the Makassar Strait, round Borneo",
             seeds=((118.5, -2.0), (113.5, 7.0), (109.0, 1.5), (125.0, -1.0), (112.0, -3.0))),
    49: dict(at=(126.0, 12.0), note="the waters of the Philippines",
             seeds=((118.0, 13.0), (121.0, 20.0), (126.0, 17.0), (120.0, 9.0), (127.0, 6.0))),
    50: dict(at=(148.0, 5.0), note="the Caroline Islands",
             seeds=((140.0, 8.5), (158.0, 4.0), (135.0, 3.5), (152.0, 10.0))),
    51: dict(at=(166.6, 15.0), note="Wake Island, with the Marshalls and the Marianas",
             seeds=((172.0, 8.0), (150.0, 18.0), (143.0, 23.0), (160.0, 23.0), (178.0, 15.0))),
    52: dict(at=(-157.0, 17.0), note="the waters of the Hawaiian Islands",
             seeds=((-165.0, 23.0), (-150.0, 14.0), (-170.0, 12.0), (-160.0, 5.0),
                    (-178.0, 20.0), (-145.0, 28.0), (175.0, 25.0))),
    53: dict(at=(-130.0, 17.0), note="the eastern Pacific between Hawaii and Mexico",
             seeds=((-135.0, 5.0), (-125.0, 27.0), (-140.0, 25.0))),
    54: dict(at=(-113.0, 20.0), note="the Pacific off Mexico and southern California",
             seeds=((-120.0, 30.0), (-101.0, 14.0), (-95.0, 13.5), (-111.0, 26.5))),
    55: dict(at=(-131.0, 43.0), note="the Pacific off Oregon, Washington and British Columbia",
             seeds=((-128.0, 50.0), (-124.0, 36.0), (-140.0, 38.0))),
    56: dict(at=(-170.0, 33.0), note="the North Pacific round Midway",
             seeds=((-177.37, 30.5), (-160.0, 40.0), (-148.0, 46.0), (-176.0, 37.0))),
    57: dict(at=(165.0, 38.0), note="the north-western Pacific east of Japan and the Kurils",
             seeds=((156.0, 45.0), (178.0, 44.0), (160.0, 32.0), (150.0, 38.0))),
    58: dict(at=(129.0, 24.0), note="the Ryukyu Islands round Okinawa",
             seeds=((131.0, 27.5), (125.0, 21.5), (134.5, 21.0))),
    59: dict(at=(124.5, 29.0), note="the East China Sea, with the Formosa Strait and the coast "
             "of south China",
             seeds=((117.0, 21.0), (120.0, 24.0), (112.5, 20.0), (123.5, 33.0), (127.5, 31.5))),
    60: dict(at=(145.0, 35.0), note="the Pacific east of Japan, with the Tatar Strait",
             seeds=((141.0, 30.0), (139.0, 47.0), (147.0, 41.0), (137.5, 44.0), (138.0, 26.0),
                    (132.5, 30.5))),
    61: dict(at=(134.0, 40.0), note="the Sea of Japan and the Yellow Sea",
             seeds=((129.0, 34.7), (123.5, 37.0), (120.0, 39.0), (131.0, 42.0))),
    62: dict(at=(150.0, 54.0), note="the Sea of Okhotsk and the waters of Kamchatka",
             seeds=((160.0, 50.0), (145.0, 48.0), (143.0, 55.0), (154.0, 58.5))),
    63: dict(at=(-178.0, 57.5), note="the Bering Sea and the Aleutians",
             seeds=((-168.0, 56.0), (172.0, 56.0), (-172.0, 62.0), (178.0, 61.5),
                    (168.0, 52.0))),
    64: dict(at=(-145.0, 56.0), note="the Gulf of Alaska",
             seeds=((-136.0, 55.5), (-153.0, 56.5), (-140.0, 59.0))),
}

#: Waters that are no sea zone (not playable on the board): (west, south, east, north)
#: boxes in map x (see CUT_LON) and latitude.  The Arctic Ocean beyond the Norwegian and
#: Barents seas, and Hudson Bay.  Closed waters (the Caspian) fall out by themselves: they
#: touch no sea-zone seed.
NO_SEA_ZONE: list[tuple[float, float, float, float, str]] = [
    (CUT_LON, 66.6, -45.0, 90.0, "Arctic: Beaufort Sea, Canadian Arctic, Baffin Bay"),
    (68.0, 66.6, CUT_LON + 360.0, 90.0, "Arctic: Kara to Chukchi seas"),
    (-45.0, 80.5, 68.0, 90.0, "Arctic Ocean north of Svalbard"),
    (-96.0, 50.0, -76.0, 66.6, "Hudson Bay and James Bay"),
    (-82.0, 60.5, -64.5, 66.6, "Hudson Strait and Foxe Basin"),
]
